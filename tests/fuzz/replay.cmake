# Regression tests of the fuzz targets in the regular build (included by tests/CMakeLists.txt):
# replay_NAME feeds tests/fuzz/regressions/NAME/ (inputs that once crashed) and the seed inputs
# through the same LLVMFuzzerTestOneInput, with the build's compiler and sanitizers (if any).
include(${CMAKE_CURRENT_LIST_DIR}/targets.cmake)
set(_fuzz_dir ${PROJECT_SOURCE_DIR}/tests/fuzz)
foreach(name IN LISTS GEMM_ADVISOR_FUZZ_TARGETS)
  add_executable(replay_${name} ${_fuzz_dir}/replay_main.cpp)
  gemm_advisor_fuzz_target_setup(replay_${name} ${name})
  set(_inputs ${_fuzz_dir}/seeds/${name})
  if(EXISTS ${_fuzz_dir}/regressions/${name})  # re-run cmake after adding a target's first regression
    list(APPEND _inputs ${_fuzz_dir}/regressions/${name})
  endif()
  if(name STREQUAL "profile")
    list(APPEND _inputs ${PROJECT_SOURCE_DIR}/profiles ${PROJECT_SOURCE_DIR}/tests/data/toy.yaml)
  elseif(name STREQUAL "shape_list_csv" OR name STREQUAL "shape_list_auto")
    list(APPEND _inputs ${PROJECT_SOURCE_DIR}/examples)
  elseif(name STREQUAL "candidates")
    list(APPEND _inputs ${PROJECT_SOURCE_DIR}/tests/data/candidates.csv)
  elseif(name STREQUAL "measurements")
    list(APPEND _inputs ${PROJECT_SOURCE_DIR}/tests/data/tiny-measurements.csv)
  endif()
  add_test(NAME fuzz_regressions_${name} COMMAND replay_${name} ${_inputs})
endforeach()
