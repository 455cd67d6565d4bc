// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/dock_layout.h"

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

QString textOf(const nlohmann::json& v)
{
    return v.is_string() ? QString::fromStdString(v.get_ref<const std::string&>()) : QString();
}

QList<QStringList> groupsFrom(const nlohmann::json& o, const char* key)
{
    QList<QStringList> groups;
    const auto list = o.find(key);
    if (list == o.end() || !list->is_array()) return groups;
    for (const nlohmann::json& entry : *list) {
        QStringList group;
        if (entry.is_array()) {
            for (const nlohmann::json& name : entry) group << textOf(name);
        } else {
            group << textOf(entry);
        }
        group.removeAll(QString());
        if (!group.isEmpty()) groups << group;
    }
    return groups;
}

}  // namespace

DockLayout dockLayoutFrom(const nlohmann::json& o)
{
    DockLayout l;
    if (!o.is_object()) return l;
    if (const auto tab = o.find("tab"); tab != o.end()) l.tab = textOf(*tab);
    const auto full = o.find("right_full_height");
    l.rightFullHeight = full != o.end() && full->is_boolean() && full->get<bool>();
    l.left = groupsFrom(o, "left");
    l.right = groupsFrom(o, "right");
    l.bottom = groupsFrom(o, "bottom");
    return l;
}

}  // namespace attnlab
