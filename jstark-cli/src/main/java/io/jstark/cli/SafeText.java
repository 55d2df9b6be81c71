package io.jstark.cli;

import io.jstark.protocol.ProofFormat;

/**
 * Text from outside (a proof's table names, a statement or key file, an exception's message naming them)
 * as the command line prints it: every character that is not visible text ({@link ProofFormat#isInvisible})
 * written as an escape, so that what a file holds can neither start a line of its own (a forged
 * {@code VALID:}) nor send a terminal an escape sequence. The one way every command prints such text.
 */
final class SafeText {
    private SafeText() {}

    static String of(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c);
            if (ProofFormat.isInvisible(c)) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(
                        switch (c) {
                            case '\n' -> "\\n";
                            case '\r' -> "\\r";
                            case '\t' -> "\\t";
                            default -> String.format("\\u%04x", c);
                        });
            } else if (out != null) {
                out.appendCodePoint(c);
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }
}
