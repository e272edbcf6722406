# Locates elfutils libdw, which the backtrace code uses to map return
# addresses to function, file and line. Internal to this build (not installed):
# libtvm_ffi links it privately, so consumers never need it.

# tvm_ffi_find_libdw(<out_var>): sets <out_var> to something to link against
# (an imported target or a library path), or to "" when libdw or its
# elfutils/libdwfl.h header is missing.
function(tvm_ffi_find_libdw out_var)
  set(_result "")
  find_path(TVM_FFI_LIBDWFL_INCLUDE_DIR elfutils/libdwfl.h)
  if(TVM_FFI_LIBDWFL_INCLUDE_DIR)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(TVM_FFI_LIBDW QUIET IMPORTED_TARGET libdw)
    endif()
    if(TVM_FFI_LIBDW_FOUND)
      set(_result PkgConfig::TVM_FFI_LIBDW)
    else()
      find_library(TVM_FFI_LIBDW_LIBRARY dw)
      if(TVM_FFI_LIBDW_LIBRARY)
        set(_result ${TVM_FFI_LIBDW_LIBRARY})
      endif()
    endif()
  endif()
  set(${out_var} "${_result}" PARENT_SCOPE)
endfunction()
