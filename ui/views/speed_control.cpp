// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/speed_control.h"

#include <algorithm>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

namespace attnlab {

SpeedControl::SpeedControl(std::vector<int> stepsPerSecond, QWidget* parent)
    : QWidget(parent),
      rates_(stepsPerSecond.empty() ? std::vector<int>{0} : std::move(stepsPerSecond)),
      name_(new QLabel(this)),
      slider_(new QSlider(Qt::Horizontal, this)),
      value_(new QLabel(this))
{
    slider_->setRange(0, static_cast<int>(rates_.size()) - 1);
    slider_->setValue(slider_->maximum());
    slider_->setPageStep(1);
    slider_->setTickPosition(QSlider::TicksBelow);
    slider_->setMinimumWidth(60);
    name_->setBuddy(slider_);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(name_);
    row->addWidget(slider_, 1);
    row->addWidget(value_);
    connect(slider_, &QSlider::valueChanged, this, [this] {
        retranslate();
        Q_EMIT delayChanged(stepDelayUs());
    });
    retranslate();
}

int SpeedControl::stepsPerSecond() const
{
    const int i = std::clamp(slider_->value(), 0, static_cast<int>(rates_.size()) - 1);
    return rates_[static_cast<std::size_t>(i)];
}

int SpeedControl::stepDelayUs() const
{
    const int perSecond = stepsPerSecond();
    return perSecond > 0 ? 1000000 / perSecond : 0;
}

void SpeedControl::setHelp(const QString& text)
{
    slider_->setToolTip(text);
    name_->setToolTip(text);
}

void SpeedControl::retranslate()
{
    name_->setText(tr("Speed:"));
    const int perSecond = stepsPerSecond();
    value_->setText(perSecond > 0 ? tr("%1 steps/s").arg(perSecond) : tr("Full speed"));
}

void SpeedControl::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
