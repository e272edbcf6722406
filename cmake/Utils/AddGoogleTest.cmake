# Fetches GoogleTest v1.14.0 at include time and defines TVM_FFI_ADD_GTEST(<t>):
# link gtest_main and register the target's tests with ctest. Not loaded by the
# package config: include() it by path (needs network access at configure).
include(FetchContent)
FetchContent_Declare(
  googletest
  URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz)
set(gtest_force_shared_crt ON CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
FetchContent_MakeAvailable(googletest)
include(GoogleTest)

macro(TVM_FFI_ADD_GTEST target)
  add_test(NAME ${target} COMMAND ${target})
  target_link_libraries(${target} PRIVATE gtest_main)
  gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST)
endmacro()
