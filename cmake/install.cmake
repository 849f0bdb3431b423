# `cmake --install build --prefix P` and `cpack -G DEB` (in the build directory):
#   P/bin/gemm-advisor                                   the CLI
#   P/share/gemm-advisor/profiles/*.yaml, SCHEMA.md      the shipped profiles (also compiled in)
#   P/share/gemm-advisor/examples/*.csv                  the README's shape and model lists
#   P/include/gemm_advisor/*.hpp, P/lib/libgemm_advisor.a the library (static, position-independent)
#   P/lib/cmake/gemm_advisor/                            find_package(gemm_advisor): gemm_advisor::gemm_advisor
#   P/lib/pkgconfig/gemm_advisor.pc                      pkg-config --cflags --libs gemm_advisor
#   P/GEMM_ADVISOR_PYTHON_INSTALL_DIR/gemm_advisor/      the Python package (default lib/python3.X/site-packages)
#   P/share/bash-completion/completions/gemm-advisor, P/share/zsh/site-functions/_gemm-advisor,
#   P/share/fish/vendor_completions.d/gemm-advisor.fish  completions, generated from --help
#   P/share/man/man1/gemm-advisor.1                      the man page (help2man; skipped without it)
include(CMakePackageConfigHelpers)

set(GEMM_ADVISOR_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gemm_advisor)
set(GEMM_ADVISOR_PROFILES_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/gemm-advisor/profiles)

install(TARGETS gemm-advisor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gemm_advisor EXPORT gemm_advisorTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/gemm_advisor DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
file(GLOB GEMM_ADVISOR_PROFILE_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/profiles/*.yaml)
install(FILES ${GEMM_ADVISOR_PROFILE_FILES} ${PROJECT_SOURCE_DIR}/profiles/SCHEMA.md DESTINATION ${GEMM_ADVISOR_PROFILES_INSTALL_DIR})
# The lists the README's batch commands name (examples/llama3-70b.csv, moe-models.csv, ...): an
# installed user had none of them (fresh users' finds, 2026-12-05).
file(GLOB GEMM_ADVISOR_EXAMPLE_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*.csv)
install(FILES ${GEMM_ADVISOR_EXAMPLE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/gemm-advisor/examples)
if(GEMM_ADVISOR_SANITIZE)
  # A sanitized static library needs the sanitizer runtimes wherever it is linked.
  target_link_options(gemm_advisor INTERFACE -fsanitize=address,undefined,float-cast-overflow)
endif()

# CMake package: find_package(gemm_advisor) -> gemm_advisor::gemm_advisor.
install(EXPORT gemm_advisorTargets NAMESPACE gemm_advisor:: DESTINATION ${GEMM_ADVISOR_CMAKE_INSTALL_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gemm_advisorConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gemm_advisorConfig.cmake
  INSTALL_DESTINATION ${GEMM_ADVISOR_CMAKE_INSTALL_DIR}
  PATH_VARS GEMM_ADVISOR_PROFILES_INSTALL_DIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gemm_advisorConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gemm_advisorConfig.cmake ${PROJECT_BINARY_DIR}/gemm_advisorConfigVersion.cmake
        DESTINATION ${GEMM_ADVISOR_CMAKE_INSTALL_DIR})

# pkg-config, relocatable: the prefix is found from the .pc file's own place.
file(RELATIVE_PATH GEMM_ADVISOR_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" GEMM_ADVISOR_PC_TO_PREFIX "${GEMM_ADVISOR_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gemm_advisor.pc.in ${PROJECT_BINARY_DIR}/gemm_advisor.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gemm_advisor.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Completions and the man page, from the binary's own --help (cmake/gen_cli_docs.py, help2man).
# The binary runs at build time: leak checks off (LeakSanitizer cannot run in some containers).
set(GEMM_ADVISOR_DOCS_DIR ${PROJECT_BINARY_DIR}/cli-docs)
set(GEMM_ADVISOR_DOCS_ENV ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
    "PATH=$<TARGET_FILE_DIR:gemm-advisor>:$ENV{PATH}")
set(docs_outputs ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.bash ${GEMM_ADVISOR_DOCS_DIR}/_gemm-advisor
                 ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.fish ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.h2m)
add_custom_command(OUTPUT ${docs_outputs}
  COMMAND ${GEMM_ADVISOR_DOCS_ENV} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py
          $<TARGET_FILE:gemm-advisor> ${GEMM_ADVISOR_DOCS_DIR}
  DEPENDS gemm-advisor ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py
  COMMENT "Writing the shell completions from gemm-advisor --help"
  VERBATIM)
find_program(HELP2MAN_EXECUTABLE help2man)
if(HELP2MAN_EXECUTABLE)
  # Run as `gemm-advisor` (on PATH) so that the page's usage lines name the command, not a build path.
  add_custom_command(OUTPUT ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.1
    COMMAND ${GEMM_ADVISOR_DOCS_ENV} ${HELP2MAN_EXECUTABLE} --no-info --no-discard-stderr
            "--name=rank GPU GEMM tile configurations with an analytical latency model"
            --include=${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.h2m --output=${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.1
            gemm-advisor
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py --fix-man ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.1
    DEPENDS gemm-advisor ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.h2m ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py
    COMMENT "Writing the man page (help2man)"
    VERBATIM)
  list(APPEND docs_outputs ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.1)
  install(FILES ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(GEMM_ADVISOR_MAN_PAGE ON)
else()
  message(STATUS "help2man not found: no man page (Debian: help2man)")
  set(GEMM_ADVISOR_MAN_PAGE OFF)
endif()
add_custom_target(cli_docs ALL DEPENDS ${docs_outputs})
install(FILES ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME gemm-advisor)
install(FILES ${GEMM_ADVISOR_DOCS_DIR}/_gemm-advisor DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${GEMM_ADVISOR_DOCS_DIR}/gemm-advisor.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# CPack: `cpack -G DEB` in the build directory writes gemm-advisor_VERSION_ARCH.deb (prefix /usr;
# the Python package moved to /usr/lib/python3/dist-packages by cmake/cpack_debian_python.cmake).
set(CPACK_PACKAGE_NAME gemm-advisor)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Ranks GPU GEMM tile configurations with an analytical latency model")
set(CPACK_PACKAGE_CONTACT "gemm-advisor developers <gemm-advisor@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
find_program(DPKG_SHLIBDEPS_EXECUTABLE dpkg-shlibdeps)
if(DPKG_SHLIBDEPS_EXECUTABLE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # the shared libraries' packages (libyaml-cpp0.7, libfmt9, ...)
endif()
if(GEMM_ADVISOR_PYTHON_BUILT)
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")  # the extension is built for one python3.X
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${next_minor})")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-matplotlib, nlohmann-json3-dev, libyaml-cpp-dev, libfmt-dev, libtbb-dev, libcsv-dev, zlib1g-dev")
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/cpack_debian_python.cmake)
include(CPack)
