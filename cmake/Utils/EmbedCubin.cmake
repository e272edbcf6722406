# CUDA helpers: compile a .cu file to .cubin/.fatbin and embed such a binary
# into a library's object file for TVM_FFI_EMBED_CUBIN(<symbol>). Loaded by
# tvm_ffi-config.cmake; usable only in projects with the CUDA language enabled,
# but defined everywhere.

if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  message(STATUS "CMAKE_CUDA_RUNTIME_LIBRARY not set, defaulting to Shared. If you want to use driver API only, set CMAKE_CUDA_RUNTIME_LIBRARY to None.")
endif()

set(OBJECT_COPY_UTIL "${CMAKE_CURRENT_LIST_DIR}/ObjectCopyUtil.cmake")

# Shared body of add_tvm_ffi_cubin / add_tvm_ffi_fatbin.
function(_tvm_ffi_add_cuda_binary kind flag ext name)
  cmake_parse_arguments(ARG "" "CUDA" "" ${ARGN})
  if(NOT ARG_CUDA)
    message(FATAL_ERROR "add_tvm_ffi_${kind}: CUDA source is required")
  endif()
  add_library(${name} OBJECT ${ARG_CUDA})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${flag}>)
  add_custom_target(${name}_bin ALL
    COMMAND ${CMAKE_COMMAND} "-DOBJECTS=$<TARGET_OBJECTS:${name}>" "-DOUT_DIR=" "-DEXT=${ext}"
            -P "${OBJECT_COPY_UTIL}"
    DEPENDS ${name}
    COMMENT "Generating .${ext} files for ${name}"
    VERBATIM)
endfunction()

# add_tvm_ffi_cubin(<name> CUDA <file.cu>): OBJECT library compiled with --cubin,
# plus <name>_bin which copies each object to <object name>.cubin.
function(add_tvm_ffi_cubin name)
  _tvm_ffi_add_cuda_binary(cubin --cubin cubin ${name} ${ARGN})
endfunction()

# add_tvm_ffi_fatbin(<name> CUDA <file.cu>): the same with --fatbin / .fatbin.
function(add_tvm_ffi_fatbin name)
  _tvm_ffi_add_cuda_binary(fatbin --fatbin fatbin ${name} ${ARGN})
endfunction()

# tvm_ffi_embed_bin_into(<target> SYMBOL <sym> BIN <file>)
#
# Before <target> links, rewrite its (single) object file so that it carries
# <file> between the symbols __tvm_ffi__cubin_<sym> and __tvm_ffi__cubin_<sym>_end.
function(tvm_ffi_embed_bin_into target)
  cmake_parse_arguments(ARG "" "SYMBOL;BIN" "" ${ARGN})
  if(NOT ARG_BIN)
    message(FATAL_ERROR "tvm_ffi_embed_bin_into: BIN is required")
  endif()
  if(NOT ARG_SYMBOL)
    message(FATAL_ERROR "tvm_ffi_embed_bin_into: SYMBOL is required")
  endif()
  set(_intermediate "${CMAKE_CURRENT_BINARY_DIR}/${ARG_SYMBOL}_intermediate.o")
  add_custom_command(TARGET ${target} PRE_LINK
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "$<TARGET_OBJECTS:${target}>" "${_intermediate}"
    COMMAND "${Python_EXECUTABLE}" -m tvm_ffi.utils.embed_cubin
            --output-obj "$<TARGET_OBJECTS:${target}>" --name "${ARG_SYMBOL}"
            --input-obj "${_intermediate}" --cubin "${ARG_BIN}"
    COMMENT "Embedding ${ARG_BIN} into ${target} as ${ARG_SYMBOL}"
    VERBATIM
    COMMAND_EXPAND_LISTS)
endfunction()
