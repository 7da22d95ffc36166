//! IDA*, linear conflict and pattern databases. (Issue 4; to be written.)
