# SPDX-License-Identifier: GPL-3.0-or-later
# Install rules and the Debian package (CPack). Included from the top-level CMakeLists.txt
# when the program is built (ATTNLAB_BUILD_UI).
#
#   cmake --install build --prefix /usr     (with DESTDIR=... to stage)
#   scripts/package.sh                      (build-package/, ATTNLAB_NATIVE=OFF, cpack -G DEB)
#
# The lessons and the translations are not installed: ui/CMakeLists.txt compiles them into
# the program with qt_add_resources (:/lessons, :/i18n), so the binary is all it needs.
include(GNUInstallDirs)

set(ATTNLAB_APP_ID io.github.attnlab.AttnLab)
set(ATTNLAB_HOMEPAGE https://github.com/attnlab/attnlab)
set(ATTNLAB_RESOURCES ${PROJECT_SOURCE_DIR}/resources)

# qt_standard_project_setup() gives installed programs the RUNPATH $ORIGIN:$ORIGIN/../lib, for
# Qt libraries shipped beside them. Ours are the system's, in the default search path.
set_target_properties(attnlab PROPERTIES INSTALL_RPATH "")
install(TARGETS attnlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Menu entry, software-centre metadata, the session MIME type (NAME.attnlab.json).
install(FILES ${ATTNLAB_RESOURCES}/desktop/${ATTNLAB_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${ATTNLAB_RESOURCES}/desktop/${ATTNLAB_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${ATTNLAB_RESOURCES}/desktop/${ATTNLAB_APP_ID}.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)

# The icon: the hand-drawn SVG and the PNGs made from it (scripts/make_icons.sh).
install(FILES ${ATTNLAB_RESOURCES}/icons/${ATTNLAB_APP_ID}.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 24 32 48 64 128 256 512)
  install(FILES ${ATTNLAB_RESOURCES}/icons/hicolor/${size}x${size}/apps/${ATTNLAB_APP_ID}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()

# The man page, compressed as Debian installs man pages (gzip -9n: no name, no time stamp,
# so the same page gives the same bytes).
find_program(ATTNLAB_GZIP gzip REQUIRED)
set(ATTNLAB_MAN_GZ ${CMAKE_CURRENT_BINARY_DIR}/man/attnlab.1.gz)
add_custom_command(
  OUTPUT ${ATTNLAB_MAN_GZ}
  COMMAND ${CMAKE_COMMAND} -E copy ${ATTNLAB_RESOURCES}/man/attnlab.1
          ${CMAKE_CURRENT_BINARY_DIR}/man/attnlab.1
  COMMAND ${ATTNLAB_GZIP} -9nf ${CMAKE_CURRENT_BINARY_DIR}/man/attnlab.1
  DEPENDS ${ATTNLAB_RESOURCES}/man/attnlab.1
  COMMENT "Compressing the man page attnlab.1"
  VERBATIM)
add_custom_target(attnlab_man ALL DEPENDS ${ATTNLAB_MAN_GZ})
install(FILES ${ATTNLAB_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The licence and changes, where Debian looks for them: the copyright file in the machine-
# readable format (DEP-5) names AttnLab's licence and every third-party piece compiled in;
# a package without its own upstream changelog carries the Debian one as changelog.gz.
set(ATTNLAB_PACKAGE_MAINTAINER "AttnLab maintainers <maintainers@attnlab.invalid>"
    CACHE STRING "Maintainer field of the .deb")
set(ATTNLAB_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/attnlab)
set(ATTNLAB_CHANGELOG ${CMAKE_CURRENT_BINARY_DIR}/debian/changelog)
# Made when CMake configures (configure_file re-runs it when the template changes), so that a
# `cpack` after building only the program finds it.
configure_file(${ATTNLAB_RESOURCES}/debian/changelog.in ${ATTNLAB_CHANGELOG} @ONLY)
execute_process(COMMAND ${ATTNLAB_GZIP} -9nkf ${ATTNLAB_CHANGELOG} COMMAND_ERROR_IS_FATAL ANY)
install(FILES ${ATTNLAB_RESOURCES}/debian/copyright ${ATTNLAB_CHANGELOG}.gz
        DESTINATION ${ATTNLAB_DOC_DIR})

# The Debian package -------------------------------------------------------------------------
# Depends comes from dpkg-shlibdeps on the installed binary (the libraries it links), not
# from a list written here. Qt's xcb platform plugin (libqt6gui6) and SVG plugins
# (libqt6svg6) come with libraries the binary links. Recommends names what is loaded without
# linking: a CJK font for Chinese tokens, Qt's own Chinese catalogue for its dialogs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnlab)
set(CPACK_PACKAGE_VENDOR AttnLab)
set(CPACK_PACKAGE_CONTACT ${ATTNLAB_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "see, edit and step through the attention mechanism of transformers")
# The long description, as Debian wants it: lines under 80 characters.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "AttnLab makes the attention mechanism of transformers something you can\n"
       "touch: a Qt 6 window drives an Eigen attention core and draws the weight\n"
       "matrices as interactive heatmaps. Queries, keys, values, masks and the\n"
       "scoring function are editable, every step is shown with its shape, and\n"
       "fifteen lessons in Chinese and English follow a textbook section. It also\n"
       "opens GPT-2 and BERT checkpoints to show and edit the attention of real\n"
       "heads.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY attnlab)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${ATTNLAB_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# A binary tuned with -march=native may stop with "illegal instruction" on another CPU: such a
# package says so in its name. scripts/package.sh builds with ATTNLAB_NATIVE=OFF.
if(ATTNLAB_NATIVE)
  execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE ATTNLAB_DEB_ARCH
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(CPACK_DEBIAN_FILE_NAME
      "${CPACK_PACKAGE_NAME}_${PROJECT_VERSION}_${ATTNLAB_DEB_ARCH}-march-native.deb")
  message(STATUS "cpack here makes ${CPACK_DEBIAN_FILE_NAME} (-march=native); "
                 "scripts/package.sh makes the portable package")
endif()
# No source packages: the source is the git tree.
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
