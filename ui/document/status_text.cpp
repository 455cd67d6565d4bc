#include "ui/document/status_text.h"

#include <QCoreApplication>

namespace attnlab {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("attnlab::Status", text);
}
}  // namespace

QString statusMessage(const attn::Status& s)
{
    const QString field = QString::fromStdString(s.field);
    QString what;
    switch (s.code) {
    case attn::StatusCode::Ok: return {};
    case attn::StatusCode::EmptyTarget: what = tr("The sequence has no tokens."); break;
    case attn::StatusCode::EmptySource:
        what = tr("Cross-attention needs a source sequence with at least one token.");
        break;
    case attn::StatusCode::NoHeads: what = tr("There must be at least one head."); break;
    case attn::StatusCode::ZeroModelDim: what = tr("The embedding dimension is 0."); break;
    case attn::StatusCode::ZeroKeyDim:
        what = tr("The key dimension d_k must be at least 1.");
        break;
    case attn::StatusCode::ZeroValueDim:
        what = tr("The value dimension d_v must be at least 1.");
        break;
    case attn::StatusCode::ShapeMismatch:
        what = tr("%1 should be %2 × %3 but is %4 × %5.")
                   .arg(field)
                   .arg(s.expectedRows)
                   .arg(s.expectedCols)
                   .arg(s.row)
                   .arg(s.col);
        return what;
    case attn::StatusCode::NonFinite:
        what = tr("%1 holds a value that is not a finite number (row %2, column %3).")
                   .arg(field)
                   .arg(s.row + 1)
                   .arg(s.col + 1);
        return what;
    case attn::StatusCode::MaskShape:
        what = tr("The mask should be %1 × %2 but is %3 × %4.")
                   .arg(s.expectedRows)
                   .arg(s.expectedCols)
                   .arg(s.row)
                   .arg(s.col);
        return what;
    case attn::StatusCode::BadTemperature:
        what = tr("The temperature must be a number greater than 0.");
        break;
    case attn::StatusCode::SharedNeedsEqualDims:
        what = tr("Shared projections need d_v equal to d_k.");
        break;
    case attn::StatusCode::EditOutOfRange:
        what = tr("The edit names a head, token or component that does not exist.");
        break;
    case attn::StatusCode::TooLarge:
        what = tr("This would need %1 MiB of memory, more than the limit of %2 MiB. Use fewer "
                  "tokens or heads.")
                   .arg(s.bytesNeeded >> 20)
                   .arg(s.bytesBudget >> 20);
        return what;
    }
    return what;
}

}  // namespace attnlab
