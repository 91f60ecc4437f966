# The man page tansaku(1), generated from the program's own help (`tansaku --help-all`) by
# Debian's help2man, with the sections the help has not (exit status, examples, environment)
# from docs/tansaku.h2m; built with everything else and installed to share/man/man1. Its own
# file, included from CMakeLists.txt. Without help2man the rest builds and installs as before.
find_program(TANSAKU_HELP2MAN help2man)
# Sanitized builds (the asan, tsan, debug presets) test the code; they install nothing.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  message(STATUS "sanitized build: no man page")
elseif(TANSAKU_HELP2MAN)
  set(TANSAKU_MANPAGE ${PROJECT_BINARY_DIR}/tansaku.1)
  # help2man reads cmake/manpage-help.sh's layout of the help (a section per subcommand), run
  # through a link named tansaku so that the page is tansaku(1).
  set(TANSAKU_MAN_DIR ${PROJECT_BINARY_DIR}/manpage)
  add_custom_command(OUTPUT ${TANSAKU_MANPAGE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${TANSAKU_MAN_DIR}
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${PROJECT_SOURCE_DIR}/cmake/manpage-help.sh ${TANSAKU_MAN_DIR}/tansaku
    COMMAND ${CMAKE_COMMAND} -E env TANSAKU_BIN=$<TARGET_FILE:tansaku> LC_ALL=C.UTF-8
            ${TANSAKU_HELP2MAN} --no-info --no-discard-stderr --section=1 --version-string=${PROJECT_VERSION}
            --include=${PROJECT_SOURCE_DIR}/docs/tansaku.h2m --output=${TANSAKU_MANPAGE} ${TANSAKU_MAN_DIR}/tansaku
    DEPENDS tansaku ${PROJECT_SOURCE_DIR}/docs/tansaku.h2m ${PROJECT_SOURCE_DIR}/cmake/manpage-help.sh
    COMMENT "Generating the man page tansaku.1 (help2man)" VERBATIM)
  add_custom_target(manpage ALL DEPENDS ${TANSAKU_MANPAGE})
  # OPTIONAL: a tree where only the program was built (make run) installs without it.
  install(FILES ${TANSAKU_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL)
else()
  message(STATUS "help2man not found: no man page (scripts/install-deps.sh installs it)")
endif()
