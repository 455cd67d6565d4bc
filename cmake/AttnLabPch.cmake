# SPDX-License-Identifier: GPL-3.0-or-later
# Precompiled headers for the big targets. Most of a UI or test unit's compile time is spent
# parsing the same Qt, QCustomPlot, Eigen and GoogleTest headers again; parsing them once per
# target saves much of a clean build, which is what CI pays for on every run.
option(ATTNLAB_PCH "Precompile the common third-party headers of the big targets" ON)

# attnlab_precompile(<target> <kind>...): kinds are eigen, qt, plot and gtest.
function(attnlab_precompile target)
  if(NOT ATTNLAB_PCH OR ATTNLAB_BUILD_FUZZ)
    return()
  endif()
  set(headers <algorithm> <cmath> <memory> <string> <vector>)
  foreach(kind IN LISTS ARGN)
    if(kind STREQUAL "eigen")
      list(APPEND headers <Eigen/Dense>)
    elseif(kind STREQUAL "qt")
      list(APPEND headers <QCoreApplication> <QString> <QStringList> <QObject> <QWidget> <QLabel>
           <QVBoxLayout> <QHBoxLayout> <QPushButton> <QLocale> <QPointer> <QEvent> <QDir>
           <QFileInfo> <QPainter> <QMessageBox> <QTimer> <QUndoStack>)
    elseif(kind STREQUAL "plot")
      list(APPEND headers <qcustomplot.h>)
    elseif(kind STREQUAL "gtest")
      list(APPEND headers <gtest/gtest.h>)
    else()
      message(FATAL_ERROR "attnlab_precompile: unknown kind ${kind}")
    endif()
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
