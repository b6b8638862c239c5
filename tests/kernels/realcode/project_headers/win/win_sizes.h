// Included by `project_header_found.cu` only on Windows: never read, never named.
#pragma once
#error "read although its include is under #ifdef _WIN32"
