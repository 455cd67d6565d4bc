#pragma once
// The workbench window: assembles the views and panels around one Document.

#include <QMainWindow>

namespace attnlab {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};

}  // namespace attnlab
