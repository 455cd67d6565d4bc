#include "core/tokenize/load_error.h"

#include <fstream>
#include <system_error>

namespace attn::tok {

std::string describe(const LoadError& error)
{
    return error.file + ": " + error.what;
}

std::optional<LoadError> readWholeFile(const std::filesystem::path& path, std::string& out)
{
    std::error_code ec;
    const std::string name = path.string();
    if (!std::filesystem::exists(path, ec)) return LoadError{name, "file not found"};
    if (std::filesystem::is_directory(path, ec)) {
        return LoadError{name, "is a folder, not a file"};
    }
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return LoadError{name, "cannot determine the file size (" + ec.message() + ")"};
    if (size > kMaxTokenizerFileBytes) {
        return LoadError{name, "file is too large (" + std::to_string(size) +
                                   " bytes; the limit is " +
                                   std::to_string(kMaxTokenizerFileBytes) + ")"};
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return LoadError{name, "cannot open the file for reading"};
    out.assign(static_cast<std::size_t>(size), '\0');
    in.read(out.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size) {
        return LoadError{name, "could not read the whole file"};
    }
    return std::nullopt;
}

}  // namespace attn::tok
