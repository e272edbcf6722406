# Script (cmake -P) used by add_tvm_ffi_cubin / add_tvm_ffi_fatbin:
#   cmake -DOBJECTS=<list> -DOUT_DIR=<dir or empty> -DEXT=<ext> -P ObjectCopyUtil.cmake
# copies each object X.cu.o to <OUT_DIR or the object's directory>/X.<ext>.
string(REPLACE "\"" "" OBJECTS "${OBJECTS}")
string(REPLACE "\"" "" OUT_DIR "${OUT_DIR}")
string(REPLACE "\"" "" EXT "${EXT}")
foreach(obj IN LISTS OBJECTS)
  get_filename_component(_dir "${obj}" DIRECTORY)
  get_filename_component(_name "${obj}" NAME)
  # X.cu.o -> X: strip two extensions.
  string(REGEX REPLACE "\\.[^.]*$" "" _name "${_name}")
  string(REGEX REPLACE "\\.[^.]*$" "" _name "${_name}")
  if(OUT_DIR)
    set(_dest "${OUT_DIR}/${_name}.${EXT}")
  else()
    set(_dest "${_dir}/${_name}.${EXT}")
  endif()
  message("Copying ${obj} -> ${_dest}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${obj}" "${_dest}")
endforeach()
