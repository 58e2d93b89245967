// Test runner: `tests [--vectors PATH] [FILTER]`. The last line printed is "N passed, M failed".
#include <cstring>
#include <string>

#include "harness.h"

void registerVectorTests(const std::string& path);

int main(int argc, char** argv) {
    std::string vectors = "vectors/protocol-vectors.json";
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--vectors") == 0 && i + 1 < argc) {
            vectors = argv[++i];
        } else {
            filter = argv[i];
        }
    }
    registerVectorTests(vectors);
    return th::run(filter);
}
