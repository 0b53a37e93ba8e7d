# Installs the headers and a relocatable package config, so that consumers can write
#   find_package(strata CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE strata::strata)
include(CMakePackageConfigHelpers)

set(STRATA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/strata" CACHE STRING
    "Where strata's package config is installed, relative to the prefix")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/strata" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS strata EXPORT strataTargets)
install(EXPORT strataTargets NAMESPACE strata:: DESTINATION "${STRATA_INSTALL_CMAKEDIR}")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/strataConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/strataConfig.cmake"
  INSTALL_DESTINATION "${STRATA_INSTALL_CMAKEDIR}")
# A header-only library has no binary ABI, so one config fits every architecture.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/strataConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/strataConfig.cmake" "${PROJECT_BINARY_DIR}/strataConfigVersion.cmake"
        DESTINATION "${STRATA_INSTALL_CMAKEDIR}")
