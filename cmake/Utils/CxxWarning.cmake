# tvm_ffi_add_cxx_warning(<target>): strict warnings as errors (GNU/Clang);
# nothing for MSVC. Not loaded by the package config: include() it by path.
function(tvm_ffi_add_cxx_warning target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Werror -Wall -Wextra -Wpedantic -Wno-unused-parameter)
  elseif(MSVC)
  else()
    message(FATAL_ERROR "Unsupported compiler: ${CMAKE_CXX_COMPILER_ID}")
  endif()
endfunction()
