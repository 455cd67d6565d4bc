// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/status_text.h"

#include <QCoreApplication>

namespace attnlab {

namespace {
class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Status)
};
}  // namespace

QString statusMessage(const attn::Status& s)
{
    const QString field = QString::fromStdString(s.field);
    QString what;
    switch (s.code) {
    case attn::StatusCode::Ok: return {};
    case attn::StatusCode::EmptyTarget: what = Tr::tr("The sequence has no tokens."); break;
    case attn::StatusCode::EmptySource:
        what = Tr::tr("Cross-attention needs a source sequence with at least one token.");
        break;
    case attn::StatusCode::NoHeads: what = Tr::tr("There must be at least one head."); break;
    case attn::StatusCode::ZeroModelDim: what = Tr::tr("The embedding dimension is 0."); break;
    case attn::StatusCode::ZeroKeyDim:
        what = Tr::tr("The key dimension d_k must be at least 1.");
        break;
    case attn::StatusCode::ZeroValueDim:
        what = Tr::tr("The value dimension d_v must be at least 1.");
        break;
    case attn::StatusCode::ShapeMismatch:
        what = Tr::tr("%1 should be %2 × %3 but is %4 × %5.")
                   .arg(field)
                   .arg(s.expectedRows)
                   .arg(s.expectedCols)
                   .arg(s.row)
                   .arg(s.col);
        return what;
    case attn::StatusCode::NonFinite:
        what = Tr::tr("%1 holds a value that is not a finite number (row %2, column %3).")
                   .arg(field)
                   .arg(s.row + 1)
                   .arg(s.col + 1);
        return what;
    case attn::StatusCode::MaskShape:
        what = Tr::tr("The mask should be %1 × %2 but is %3 × %4.")
                   .arg(s.expectedRows)
                   .arg(s.expectedCols)
                   .arg(s.row)
                   .arg(s.col);
        return what;
    case attn::StatusCode::BadTemperature:
        what = Tr::tr("The temperature must be a number greater than 0.");
        break;
    case attn::StatusCode::SharedNeedsEqualDims:
        what = Tr::tr("Shared projections need d_v equal to d_k.");
        break;
    case attn::StatusCode::EditOutOfRange:
        what = Tr::tr("The edit names a head, token or component that does not exist.");
        break;
    case attn::StatusCode::DuplicateEdit:
        return Tr::tr("%1 edits the same vector (%2) as edits[%3]; each vector may have one edit.")
            .arg(field, QString::fromStdString(s.subject))
            .arg(s.row);
    case attn::StatusCode::MissingAdditive:
        return Tr::tr(
                   "%1 is empty: additive scoring needs every head's W_a, U_a and v (d_a at "
                   "least 1).")
            .arg(field);
    case attn::StatusCode::EditScaleTooLarge:
        return Tr::tr(
                   "%1 is too large: an edit may scale a vector by at most 1e100 (beyond, its "
                   "scores overflow).")
            .arg(field.isEmpty() ? Tr::tr("The scale") : field);
    case attn::StatusCode::BadTarget:
        return Tr::tr(
                   "%1 is negative at row %2, column %3: a target pattern holds weights of 0 "
                   "or more.")
            .arg(field)
            .arg(s.row + 1)
            .arg(s.col + 1);
    case attn::StatusCode::TooLarge:
        what = Tr::tr(
                   "This would need %1 MiB of memory, more than the limit of %2 MiB. Use fewer "
                   "tokens or heads.")
                   .arg(s.bytesNeeded >> 20)
                   .arg(s.bytesBudget >> 20);
        return what;
    }
    return what;
}

}  // namespace attnlab
