# What `cmake --install` puts where, and the .deb CPack makes of it (`./run.sh package`, or `cpack -G DEB` in a
# build directory). The unit, the udev rules, sysusers.d and tmpfiles.d go under /usr/lib: Debian 13's lintian
# refuses /lib (aliased-location: /lib is a link to usr/lib on merged-/usr systems), and Debian 12's systemd and
# udev read /usr/lib as well (its lintian accepts either). Runtime library
# dependencies are computed by dpkg-shlibdeps, never listed by hand.
include(GNUInstallDirs)

set(BOARDBANK_UNITDIR /usr/lib/systemd/system CACHE PATH "Where the systemd unit is installed")
set(BOARDBANK_UDEVRULESDIR /usr/lib/udev/rules.d CACHE PATH "Where the udev rules are installed")
# A build directory configured before the move keeps the old /lib defaults in its cache: move those along.
foreach(dir_and_old BOARDBANK_UNITDIR=/lib/systemd/system BOARDBANK_UDEVRULESDIR=/lib/udev/rules.d)
  string(REPLACE "=" ";" dir_and_old ${dir_and_old})
  list(GET dir_and_old 0 dir)
  list(GET dir_and_old 1 old)
  if("${${dir}}" STREQUAL "${old}")
    get_property(help CACHE ${dir} PROPERTY HELPSTRING)
    set(${dir} "/usr${old}" CACHE PATH "${help}" FORCE)
  endif()
endforeach()
set(BOARDBANK_SYSUSERSDIR /usr/lib/sysusers.d CACHE PATH "Where the sysusers.d file is installed")
set(BOARDBANK_TMPFILESDIR /usr/lib/tmpfiles.d CACHE PATH "Where the tmpfiles.d file is installed")
set(BOARDBANK_CONFDIR /etc/boardbank CACHE PATH "Where the example configuration is installed (a conffile)")
set(boardbank_config ${PROJECT_SOURCE_DIR}/etc/boardbank.toml)

install(TARGETS boardbank RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The camera module, loaded by the binary when a camera or a video file is used (vision/capture_module.h).
install(TARGETS boardbank_capture LIBRARY DESTINATION ${BOARDBANK_CAPTURE_MODULE_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/editions/ DESTINATION ${CMAKE_INSTALL_DATADIR}/boardbank/editions
        FILES_MATCHING PATTERN "*.toml")
install(FILES ${PROJECT_SOURCE_DIR}/systemd/boardbank.service DESTINATION ${BOARDBANK_UNITDIR})
install(FILES ${PROJECT_SOURCE_DIR}/systemd/60-boardbank.rules DESTINATION ${BOARDBANK_UDEVRULESDIR})
install(FILES ${PROJECT_SOURCE_DIR}/systemd/boardbank.sysusers DESTINATION ${BOARDBANK_SYSUSERSDIR}
        RENAME boardbank.conf)
install(FILES ${PROJECT_SOURCE_DIR}/systemd/boardbank.tmpfiles DESTINATION ${BOARDBANK_TMPFILESDIR}
        RENAME boardbank.conf)
if(EXISTS ${boardbank_config})
  install(FILES ${boardbank_config} DESTINATION ${BOARDBANK_CONFDIR})
else()
  message(WARNING "etc/boardbank.toml is missing: the package is built without its configuration file "
                  "and the package test will say so")
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/install-pi.md
              ${PROJECT_SOURCE_DIR}/docs/operations.md ${PROJECT_SOURCE_DIR}/docs/hardware.md
              ${PROJECT_SOURCE_DIR}/docs/editions.md ${PROJECT_SOURCE_DIR}/docs/vision.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Debian wants the changelog (of a native package) and the copyright file in the doc directory; the changelog
# compressed reproducibly (gzip -n: no name, no time stamp).
set(boardbank_changelog_gz ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/packaging)
execute_process(COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/packaging/deb/changelog
                OUTPUT_FILE ${boardbank_changelog_gz} COMMAND_ERROR_IS_FATAL ANY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/packaging/deb/changelog)
install(FILES ${boardbank_changelog_gz} ${PROJECT_SOURCE_DIR}/packaging/deb/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
set(boardbank_man_gz ${CMAKE_BINARY_DIR}/packaging/boardbank.1.gz)
execute_process(COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/packaging/boardbank.1
                OUTPUT_FILE ${boardbank_man_gz} COMMAND_ERROR_IS_FATAL ANY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/packaging/boardbank.1)
install(FILES ${boardbank_man_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME boardbank)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "boardbank maintainers <maintainers@users.noreply.a-seed-d3c2bd6e.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "bank for a family's property-trading board game")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Formatted by CPack: the summary is the synopsis, each line below is indented, an empty line becomes " .".
set(CPACK_PACKAGE_DESCRIPTION
    "boardbank runs on a Raspberry Pi beside a real board: it reads electronic
dice and the players' RFID cards through GPIO and SPI, watches the tokens
with a camera, applies the rules of the edition on the table, keeps every
payment in a crash-safe SQLite ledger and shows balances, questions and the
ledger on a touchscreen.

The package installs the boardbank command, a hardened systemd service run
by its own system user, the shipped editions and an example configuration
in /etc/boardbank.")
# Library dependencies from the binary's DT_NEEDED (dpkg-shlibdeps); only what is read or run outside the
# binary is named here: the fonts, systemd (systemd-sysusers and systemd-tmpfiles in postinst), debconf for the
# purge question; init-system-helpers (deb-systemd-helper) is essential.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, systemd, debconf (>= 0.5) | debconf-2.0")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gpiod")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(boardbank_control_files postinst prerm postrm config templates)
if(EXISTS ${boardbank_config})
  list(APPEND boardbank_control_files conffiles)
endif()
list(TRANSFORM boardbank_control_files PREPEND ${PROJECT_SOURCE_DIR}/packaging/deb/)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${boardbank_control_files})
# The Debian architecture: arm64 when cross-compiling for the Pi, else the build machine's (what CPack asks dpkg).
if(CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  set(BOARDBANK_DEB_ARCH arm64)
else()
  execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE BOARDBANK_DEB_ARCH
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT BOARDBANK_DEB_ARCH)
    set(BOARDBANK_DEB_ARCH unknown)  # no dpkg: the package test skips
  endif()
endif()
include(CPack)
