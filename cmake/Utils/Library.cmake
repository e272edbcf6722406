# Target helpers for projects that build libraries against tvm-ffi. Loaded by
# tvm_ffi-config.cmake (find_package(tvm_ffi)) and by this repository's own
# build, so the same functions serve the test libraries and outside users.

# tvm_ffi_add_prefix_map(<target> <path>)
#
# Strip <path>/ from the file names the compiler records (__FILE__, debug
# info), so builds are reproducible and backtraces show project paths.
function(tvm_ffi_add_prefix_map target path)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE "-ffile-prefix-map=${path}/=")
  endif()
endfunction()

# tvm_ffi_add_apple_dsymutil(<target>)
#
# Apple only: run dsymutil after the build so the debug info travels with the
# binary. A no-op elsewhere.
function(tvm_ffi_add_apple_dsymutil target)
  if(NOT APPLE)
    return()
  endif()
  find_program(DSYMUTIL dsymutil)
  mark_as_advanced(DSYMUTIL)
  if(DSYMUTIL)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${DSYMUTIL} $<TARGET_FILE:${target}>
      COMMENT "[COMMAND] dsymutil $<TARGET_FILE:${target}>"
      VERBATIM)
  endif()
endfunction()

# tvm_ffi_add_msvc_flags(<target>)
#
# MSVC only: the definitions and options the headers expect. A no-op elsewhere.
function(tvm_ffi_add_msvc_flags target)
  if(NOT MSVC)
    return()
  endif()
  target_compile_definitions(${target} PUBLIC WIN32_LEAN_AND_MEAN _CRT_SECURE_NO_WARNINGS
                             _SCL_SECURE_NO_WARNINGS _ENABLE_EXTENDED_ALIGNED_STORAGE NOMINMAX)
  target_compile_options(${target} PRIVATE /Zi /bigobj
                         "$<$<COMPILE_LANGUAGE:C,CXX>:/Zc:inline>")
endfunction()

# tvm_ffi_hide_static_linked_lib_symbols(<target>)
#
# Keep the symbols of static archives linked into <target> out of its dynamic
# symbol table. Call it after the target's target_link_libraries.
function(tvm_ffi_hide_static_linked_lib_symbols target)
  if(CMAKE_SYSTEM_NAME MATCHES "Linux|Android|FreeBSD|NetBSD|OpenBSD")
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" OR CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
      target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
    endif()
  elseif(APPLE)
    set(CMAKE_LINK_LIBRARY_USING_tvm_ffi_hidden "-load_hidden,<LIBRARY>" PARENT_SCOPE)
    set(CMAKE_LINK_LIBRARY_USING_tvm_ffi_hidden_SUPPORTED TRUE PARENT_SCOPE)
    get_target_property(_libs ${target} LINK_LIBRARIES)
    if(NOT _libs)
      return()
    endif()
    foreach(_lib IN LISTS _libs)
      set(_is_static FALSE)
      if(TARGET ${_lib})
        get_target_property(_type ${_lib} TYPE)
        if(_type STREQUAL "STATIC_LIBRARY")
          set(_is_static TRUE)
        elseif(_type STREQUAL "UNKNOWN_LIBRARY")
          get_target_property(_loc ${_lib} IMPORTED_LOCATION)
          if(_loc MATCHES "\\.a$")
            set(_is_static TRUE)
          endif()
        endif()
      elseif(_lib MATCHES "\\.a$")
        set(_is_static TRUE)
      endif()
      if(_is_static)
        set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARY_OVERRIDE_${_lib}
                     "tvm_ffi_hidden,${_lib}")
      endif()
    endforeach()
  endif()
endfunction()

# tvm_ffi_add_target_from_obj(<name> <obj_target>)
#
# From the OBJECT library <obj_target>: <name>_static (alias <name>::static),
# <name>_shared (output name <name>, alias <name>::shared) and an empty shared
# <name>_testing for the caller to add sources to; all in ${CMAKE_BINARY_DIR}/lib.
function(tvm_ffi_add_target_from_obj name obj_target)
  add_library(${name}_static STATIC $<TARGET_OBJECTS:${obj_target}>)
  set_target_properties(${name}_static PROPERTIES
    OUTPUT_NAME "${name}_static"
    ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  add_library(${name}_shared SHARED $<TARGET_OBJECTS:${obj_target}>)
  set_target_properties(${name}_shared PROPERTIES
    OUTPUT_NAME "${name}"
    ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  add_library(${name}_testing SHARED)
  set_target_properties(${name}_testing PROPERTIES
    OUTPUT_NAME "${name}_testing"
    ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  if(WIN32)
    target_compile_definitions(${obj_target} PRIVATE TVM_FFI_EXPORTS)
    foreach(_t ${name}_static ${name}_shared ${name}_testing)
      set_target_properties(${_t} PROPERTIES
        ARCHIVE_OUTPUT_DIRECTORY_RELEASE "${CMAKE_BINARY_DIR}/lib"
        LIBRARY_OUTPUT_DIRECTORY_RELEASE "${CMAKE_BINARY_DIR}/lib"
        RUNTIME_OUTPUT_DIRECTORY_RELEASE "${CMAKE_BINARY_DIR}/lib")
    endforeach()
  endif()
  add_library(${name}::static ALIAS ${name}_static)
  add_library(${name}::shared ALIAS ${name}_shared)
  tvm_ffi_add_apple_dsymutil(${name}_shared)
  tvm_ffi_add_apple_dsymutil(${name}_testing)
endfunction()

# tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF]
#   [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF] [STUB_INIT ON|OFF] [STUB_DIR <dir>]
#   [STUB_PKG <pkg>] [STUB_PREFIX <prefix>] [STUB_TARGET python|rust])
#
# Link <target> to tvm-ffi (headers, then libtvm_ffi) and apply the usual
# build settings. With STUB_DIR, a post-build step runs the stub generator
# (python -m tvm_ffi.stub.cli) over the built library; STUB_INIT ON lets it
# create the package files (__init__.py, _ffi_api.py) under STUB_DIR/STUB_PKG.
function(tvm_ffi_configure_target target)
  set(_usage "tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF] [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF] [STUB_INIT ON|OFF] [STUB_DIR <dir>] [STUB_PKG <pkg>] [STUB_PREFIX <prefix>] [STUB_TARGET python|rust])")
  if("${target}" STREQUAL "")
    message(FATAL_ERROR "tvm_ffi_configure_target: missing target name. Usage: ${_usage}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tvm_ffi_configure_target: '${target}' is not an existing CMake target.")
  endif()
  cmake_parse_arguments(ARG ""
    "LINK_SHARED;LINK_HEADER;DEBUG_SYMBOL;MSVC_FLAGS;STUB_INIT;STUB_DIR;STUB_PKG;STUB_PREFIX;STUB_TARGET"
    "" ${ARGN})
  # A keyword given without a value counts as absent.
  foreach(_opt LINK_SHARED LINK_HEADER DEBUG_SYMBOL MSVC_FLAGS)
    if(NOT DEFINED ARG_${_opt} OR "${ARG_${_opt}}" STREQUAL "")
      set(ARG_${_opt} ON)
    endif()
  endforeach()
  if(NOT DEFINED ARG_STUB_INIT OR "${ARG_STUB_INIT}" STREQUAL "")
    set(ARG_STUB_INIT OFF)
  endif()
  set(_has_pkg_or_prefix FALSE)
  if(DEFINED ARG_STUB_PKG OR DEFINED ARG_STUB_PREFIX)
    set(_has_pkg_or_prefix TRUE)
  endif()
  if(_has_pkg_or_prefix AND NOT ARG_STUB_DIR)
    message(FATAL_ERROR
      "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX require STUB_DIR to be set.")
  endif()
  if(_has_pkg_or_prefix AND NOT ARG_STUB_INIT)
    message(FATAL_ERROR
      "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX cannot be set when STUB_INIT is OFF.")
  endif()
  if(ARG_STUB_INIT AND NOT ARG_STUB_DIR)
    message(FATAL_ERROR
      "tvm_ffi_configure_target(${target}): STUB_INIT=ON requires STUB_DIR to be set.")
  endif()
  if(ARG_LINK_HEADER AND NOT TARGET tvm_ffi::header)
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): LINK_HEADER requested but targets 'tvm_ffi::header' do not exist.")
  endif()
  if(ARG_LINK_SHARED AND NOT TARGET tvm_ffi::shared)
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): LINK_SHARED requested but targets 'tvm_ffi::shared' do not exist.")
  endif()

  tvm_ffi_add_prefix_map(${target} ${CMAKE_CURRENT_SOURCE_DIR})
  if(ARG_LINK_HEADER)
    target_link_libraries(${target} PRIVATE tvm_ffi::header)
  endif()
  if(ARG_LINK_SHARED)
    target_link_libraries(${target} PRIVATE tvm_ffi::shared)
  endif()
  if(ARG_DEBUG_SYMBOL)
    tvm_ffi_add_apple_dsymutil(${target})
  endif()
  if(ARG_MSVC_FLAGS)
    tvm_ffi_add_msvc_flags(${target})
  endif()

  if(ARG_STUB_DIR)
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    get_filename_component(_stub_dir "${ARG_STUB_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(_cmd "${Python3_EXECUTABLE}" -m tvm_ffi.stub.cli "${_stub_dir}"
             --dlls "$<TARGET_FILE:${target}>")
    if(ARG_STUB_TARGET)
      list(APPEND _cmd --target "${ARG_STUB_TARGET}")
    endif()
    if(ARG_STUB_INIT)
      if(NOT DEFINED ARG_STUB_PKG OR "${ARG_STUB_PKG}" STREQUAL "")
        if(DEFINED SKBUILD_PROJECT_NAME AND NOT "${SKBUILD_PROJECT_NAME}" STREQUAL "")
          set(ARG_STUB_PKG "${SKBUILD_PROJECT_NAME}")
        else()
          set(ARG_STUB_PKG "${target}")
        endif()
      endif()
      if(NOT DEFINED ARG_STUB_PREFIX OR "${ARG_STUB_PREFIX}" STREQUAL "")
        set(ARG_STUB_PREFIX "${ARG_STUB_PKG}.")
      endif()
      list(APPEND _cmd --init-lib "${target}" --init-pypkg "${ARG_STUB_PKG}"
                       --init-prefix "${ARG_STUB_PREFIX}")
    endif()
    list(JOIN _cmd " " _cmd_text)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${_cmd}
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "[COMMAND] Running: ${_cmd_text}"
      VERBATIM)
  endif()
endfunction()

# tvm_ffi_install(<target> [DESTINATION <dir>])
#
# Install what travels with <target> besides the binary itself (which the
# caller installs with install(TARGETS ...)): on Apple the .dSYM debug bundle.
function(tvm_ffi_install target)
  if("${target}" STREQUAL "")
    message(FATAL_ERROR
      "tvm_ffi_install: missing target name. Usage: tvm_ffi_install(<target> [DESTINATION <dir>])")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tvm_ffi_install: '${target}' is not an existing CMake target.")
  endif()
  cmake_parse_arguments(ARG "" "DESTINATION" "" ${ARGN})
  if(NOT ARG_DESTINATION)
    set(ARG_DESTINATION .)
  endif()
  if(APPLE)
    install(DIRECTORY "$<TARGET_FILE:${target}>.dSYM" DESTINATION "${ARG_DESTINATION}" OPTIONAL)
  endif()
endfunction()

# tvm_ffi_keep_symbols_inside(<target>)
#
# On Linux, links a shared library so that it stays to itself when the toolchain
# links libstdc++ statically into each library: the symbols of static archives
# (with their process-wide GNU_UNIQUE facet ids) are not exported, and its calls
# to inline functions (ErrorBuilder, ...) bind to its own copies, which use its
# own libstdc++, rather than to another library's.
function(tvm_ffi_keep_symbols_inside target)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL" "LINKER:-Bsymbolic-functions")
  endif()
endfunction()

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
  tvm_ffi_keep_symbols_inside(${target})
endfunction()
