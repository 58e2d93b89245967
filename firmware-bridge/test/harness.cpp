#include "harness.h"

#include <cstdio>
#include <exception>
#include <vector>

namespace th {

namespace {

struct Case {
    std::string name;
    std::function<void()> fn;
};

std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
}

std::vector<std::string>* currentFailures = nullptr;

}  // namespace

void add(const std::string& name, std::function<void()> fn) { cases().push_back({name, std::move(fn)}); }

void fail(const char* file, int line, const std::string& message) {
    std::ostringstream os;
    os << file << ":" << line << ": " << message;
    if (currentFailures != nullptr) {
        currentFailures->push_back(os.str());
    } else {
        std::fprintf(stderr, "failure outside a test: %s\n", os.str().c_str());
    }
}

int run(const std::string& filter) {
    int passed = 0;
    int failed = 0;
    for (const Case& c : cases()) {
        if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
        std::vector<std::string> failures;
        currentFailures = &failures;
        try {
            c.fn();
        } catch (const Abort&) {
            // already recorded
        } catch (const std::exception& e) {
            failures.push_back(std::string("uncaught exception: ") + e.what());
        } catch (...) {
            failures.push_back("uncaught exception");
        }
        currentFailures = nullptr;
        if (failures.empty()) {
            ++passed;
        } else {
            ++failed;
            std::printf("FAIL %s\n", c.name.c_str());
            for (const std::string& f : failures) std::printf("    %s\n", f.c_str());
        }
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

}  // namespace th
