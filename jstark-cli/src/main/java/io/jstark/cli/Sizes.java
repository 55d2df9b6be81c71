package io.jstark.cli;

/** Parses sizes written as 2^k or as a power-of-two integer. */
final class Sizes {
    private Sizes() {}

    /** log2 of a size given as "2^k", "k" prefixed by "log", or a power of two. */
    static int parseLog(String text, String option) {
        String t = text.trim();
        try {
            if (t.startsWith("2^")) {
                return Integer.parseInt(t.substring(2));
            }
            long v = Long.parseLong(t.replace("_", ""));
            if (v < 1 || Long.bitCount(v) != 1) {
                throw new Main.UsageException(option + " must be a power of two (or 2^k), got " + text);
            }
            return Long.numberOfTrailingZeros(v);
        } catch (NumberFormatException e) {
            throw new Main.UsageException(option + " must be 2^k or a power of two, got '" + text + "'");
        }
    }
}
