# Compile-only checks of the public headers (included from the top-level
# CMakeLists.txt when TVM_FFI_BUILD_TESTS is ON). Building them is the test:
#   tvm_ffi_header_alone   every public header, included alone (twice) in its own TU
#   tvm_ffi_header_map     tests/cpp/header_map/*.cc: each header gives the names users rely on
#   tvm_ffi_compat         tests/compat/*.cc: library code written against the 0.1.x API

set(_tvm_ffi_include_root ${CMAKE_CURRENT_SOURCE_DIR}/cpp/include)
file(GLOB_RECURSE _tvm_ffi_public_headers CONFIGURE_DEPENDS
     RELATIVE ${_tvm_ffi_include_root}
     ${_tvm_ffi_include_root}/tvm/ffi/*.h ${_tvm_ffi_include_root}/dlpack/*.h)
set(_tvm_ffi_alone_sources)
foreach(_header IN LISTS _tvm_ffi_public_headers)
  string(REGEX REPLACE "[/.]" "_" _stem ${_header})
  set(_out ${CMAKE_BINARY_DIR}/tests/header_alone/${_stem}.cc)
  # Included twice: the include guard must hold.
  file(GENERATE OUTPUT ${_out} CONTENT "#include <${_header}>\n#include <${_header}>\n")
  list(APPEND _tvm_ffi_alone_sources ${_out})
endforeach()
add_library(tvm_ffi_header_alone OBJECT ${_tvm_ffi_alone_sources})
target_link_libraries(tvm_ffi_header_alone PRIVATE tvm_ffi::header)

file(GLOB _tvm_ffi_header_map_sources CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp/header_map/*.cc)
add_library(tvm_ffi_header_map OBJECT ${_tvm_ffi_header_map_sources})
target_link_libraries(tvm_ffi_header_map PRIVATE tvm_ffi::header)

file(GLOB _tvm_ffi_compat_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/compat/*.cc)
if(_tvm_ffi_compat_sources)
  add_library(tvm_ffi_compat OBJECT ${_tvm_ffi_compat_sources})
  target_link_libraries(tvm_ffi_compat PRIVATE tvm_ffi::header)
  target_compile_options(tvm_ffi_compat PRIVATE -Wall -Wextra -Wno-unused-parameter)
  add_dependencies(tvm_ffi_tests tvm_ffi_compat)
endif()
add_dependencies(tvm_ffi_tests tvm_ffi_header_alone tvm_ffi_header_map)
