# Writes OUTPUT, a header defining GEMM_ADVISOR_GIT_COMMIT (the source tree's commit, "-dirty" when
# it has uncommitted changes, "unknown" outside git), and touches it only when that changes, so a
# build after a commit recompiles one file. Run at every build (lib/CMakeLists.txt).
execute_process(COMMAND git -C ${SRC} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C ${SRC} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#pragma once\n#define GEMM_ADVISOR_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()
