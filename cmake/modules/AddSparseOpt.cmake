# Thin wrappers over AddMLIR that also export our libraries for
# find_package(SparseOpt).

# add_sopt_library(name sources...
#   [DEPENDS targets...]        tablegen targets the sources need
#   [LINK_LIBS libs...]         our own libraries (PUBLIC)
#   [MLIR_LIBS libs...])        upstream MLIR libraries, or libMLIR.so
# A library without MLIR_LIBS is plain C++ (the host runtime, which the GPU
# machine links without LLVM): a plain add_library, so that neither libLLVM.so
# nor libMLIR.so enters its link interface (add_mlir_library adds both).
function(add_sopt_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  if(ARG_MLIR_LIBS)
    add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
      EXCLUDE_FROM_LIBMLIR DISABLE_INSTALL
      DEPENDS ${ARG_DEPENDS}
      LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  else()
    add_library(${name} ${ARG_UNPARSED_ARGUMENTS})
    set_target_properties(${name} PROPERTIES
      ARCHIVE_OUTPUT_DIRECTORY ${LLVM_LIBRARY_OUTPUT_INTDIR}
      LIBRARY_OUTPUT_DIRECTORY ${LLVM_LIBRARY_OUTPUT_INTDIR})
    if(ARG_DEPENDS)
      add_dependencies(${name} ${ARG_DEPENDS})
    endif()
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  endif()
  target_include_directories(${name} PUBLIC
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name} EXPORT SparseOptTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY SPARSE_OPT_LIBS ${name})
endfunction()
