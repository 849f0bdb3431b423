# The fuzz targets: NAME -> source and compile definitions. Included by tests/fuzz/CMakeLists.txt
# (libFuzzer builds) and tests/fuzz/replay.cmake (the regular build's replay tests).
set(GEMM_ADVISOR_FUZZ_TARGETS
  shape shape_list_csv shape_list_yaml shape_list_json shape_list_text shape_list_auto
  profile candidates measurements)

# gemm_advisor_fuzz_target_setup(TARGET NAME): adds NAME's source and definitions to TARGET.
function(gemm_advisor_fuzz_target_setup target name)
  set(dir ${PROJECT_SOURCE_DIR}/tests/fuzz)
  if(name MATCHES "^shape_list_(.*)$")
    set(format ${CMAKE_MATCH_1})
    if(format STREQUAL "auto")
      set(format automatic)
    endif()
    target_sources(${target} PRIVATE ${dir}/fuzz_shape_list.cpp)
    target_compile_definitions(${target} PRIVATE FUZZ_SHAPE_FORMAT=${format})
  else()
    target_sources(${target} PRIVATE ${dir}/fuzz_${name}.cpp)
  endif()
  target_include_directories(${target} PRIVATE ${dir})
  target_link_libraries(${target} PRIVATE gemm_advisor)
endfunction()
