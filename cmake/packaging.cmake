# `make package`: CPack's Debian package of the components runtime and python (the programs,
# the data in /usr/share/tansaku, the module in /usr/lib/python3/dist-packages), its
# dependencies found by dpkg-shlibdeps; it goes to TANSAKU_DIST_DIR beside the wheel
# (python/CMakeLists.txt, target `wheel`). Packages are meant to come from a portable build
# (the `package` preset: TANSAKU_NATIVE=OFF). The test PackageInstall (label `package`,
# tests/package_install.py) installs both into clean places and runs them with the source
# and build trees hidden.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tansaku)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "puzzle-search engine: optimal solutions, unsolvability proofs, state spaces")
set(CPACK_PACKAGE_DESCRIPTION "tansaku solves puzzles optimally (sliding-tile puzzles, permutation puzzles such as
the 2x2x2 cube, peg solitaire, sliding blocks, lights out, graph colouring, knight's
tours...), proves when a position has no solution and enumerates whole state spaces.
This package holds the command-line program, its local web app (tansaku serve), the
shipped puzzle data and the Python module for Debian's Python 3.")
set(CPACK_PACKAGE_CONTACT "tansaku maintainers <tansaku@localhost>")
set(CPACK_OUTPUT_FILE_PREFIX ${TANSAKU_DIST_DIR})  # CPack works in the build tree, writes the .deb there
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL runtime python)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TANSAKU_WITH_PYTHON)
  # The module is built for this Python's minor version only.
  math(EXPR tansaku_py_next "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), python3 (<< ${Python_VERSION_MAJOR}.${tansaku_py_next})")
endif()
include(CPack)

# Registered in the tree that makes the packages (the `package` preset).
option(TANSAKU_PACKAGE_TEST "Test the packages make package built (ctest label package)" OFF)
if(TANSAKU_PACKAGE_TEST)
  enable_testing()
  add_test(NAME PackageInstall COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/package_install.py
           --dist ${TANSAKU_DIST_DIR} --version ${PROJECT_VERSION} --tansaku $<TARGET_FILE:tansaku>
           --build ${PROJECT_BINARY_DIR} --hide ${PROJECT_SOURCE_DIR} --hide ${PROJECT_BINARY_DIR})
  set_tests_properties(PackageInstall PROPERTIES LABELS package TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
