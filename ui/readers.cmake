# SPDX-License-Identifier: GPL-3.0-or-later
# attnlab_readers: the Qt side of reading and writing the files people send each other (session
# files, the lesson catalogue and its layouts; the bounded reader and atomic writer of core/io
# with their translated messages), apart from the widgets.
# QtCore only, but for dock_layout.cpp (Qt::DockWidgetArea). attnlab_ui links it; without the UI
# it is what the sanitizer build's io_tests (ATTNLAB_BUILD_READERS) and the fuzz targets run.
set(ATTNLAB_READER_SOURCES
    ${PROJECT_SOURCE_DIR}/ui/io/session_file.cpp
    ${PROJECT_SOURCE_DIR}/ui/io/session_file_read.cpp
    ${PROJECT_SOURCE_DIR}/ui/io/session_file_read_params.cpp
    ${PROJECT_SOURCE_DIR}/ui/io/session_file_write.cpp
    ${PROJECT_SOURCE_DIR}/ui/io/atomic_file.cpp
    ${PROJECT_SOURCE_DIR}/ui/io/bounded_read.cpp
    ${PROJECT_SOURCE_DIR}/ui/document/session.cpp
    ${PROJECT_SOURCE_DIR}/ui/document/status_text.cpp
    ${PROJECT_SOURCE_DIR}/ui/document/view_state.cpp
    ${PROJECT_SOURCE_DIR}/ui/lessons/lesson_catalog.cpp
    ${PROJECT_SOURCE_DIR}/ui/window/dock_layout.cpp)
add_library(attnlab_readers STATIC ${ATTNLAB_READER_SOURCES})
target_include_directories(attnlab_readers PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(attnlab_readers PUBLIC attnlab_core Qt6::Core Qt6::Widgets
                                              nlohmann_json::nlohmann_json)
target_compile_definitions(attnlab_readers PUBLIC QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII)
# No Q_OBJECT here: nothing to moc.
set_target_properties(attnlab_readers PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
attnlab_target_defaults(attnlab_readers)
