# CMake helpers for projects that build libraries against tvm-ffi. Installed
# next to tvm_ffiConfig.cmake and loaded by find_package(tvm_ffi), so the same
# functions serve this repository's test libraries and outside users.

# tvm_ffi_add_module(<target> [OUTPUT_NAME <name>] SOURCES <src>...)
#
# Builds a loadable library <name>.so (no "lib" prefix; <name> defaults to
# <target>) linked to tvm_ffi::shared, ready for
# tvm::ffi::Module::LoadFromFile or tvm_ffi.load_module. The functions it
# exports with TVM_FFI_DLL_EXPORT_TYPED_FUNC keep default visibility.
function(tvm_ffi_add_module target)
  cmake_parse_arguments(ARG "" "OUTPUT_NAME" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tvm_ffi_add_module(${target}): SOURCES is required")
  endif()
  if(NOT ARG_OUTPUT_NAME)
    set(ARG_OUTPUT_NAME ${target})
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE tvm_ffi::shared)
  target_compile_features(${target} PRIVATE cxx_std_17)
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${ARG_OUTPUT_NAME}
    POSITION_INDEPENDENT_CODE ON)
endfunction()
