package io.jstark.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The rules a table's name and height follow wherever a proof may hold the table ({@link ProofFormat#nameViolation},
 * {@link ProofFormat#heightViolation}): names of at most {@value ProofFormat#MAX_NAME_BYTES} bytes of visible text,
 * heights within 2^1..2^{@value ProofFormat#MAX_LOG_HEIGHT}.
 */
final class NameAndHeightRules {
    private static final String HEIGHT_RANGE = "2^1..2^" + ProofFormat.MAX_LOG_HEIGHT;

    private NameAndHeightRules() {}

    static Optional<String> nameViolation(String name) {
        int bytes = utf8(name).length;
        if (bytes > ProofFormat.MAX_NAME_BYTES) {
            return Optional.of("the name has " + bytes + " bytes of UTF-8, at most " + ProofFormat.MAX_NAME_BYTES
                    + " are allowed");
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (isInvisible(c)) {
                return Optional.of(String.format(
                        "the name holds the character U+%04X at index %d (control, format and line "
                                + "separator characters are not allowed in names)",
                        c, i));
            }
            i += Character.charCount(c);
        }
        return Optional.empty();
    }

    static boolean isInvisible(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }

    static Optional<String> heightViolation(int minLogHeight, int maxLogHeight) {
        if (minLogHeight >= 1 && maxLogHeight <= ProofFormat.MAX_LOG_HEIGHT && minLogHeight <= maxLogHeight) {
            return Optional.empty();
        }
        return Optional.of(
                minLogHeight == maxLogHeight
                        ? "height 2^" + minLogHeight + " is outside " + HEIGHT_RANGE
                        : "heights 2^" + minLogHeight + "..2^" + maxLogHeight + " are not within " + HEIGHT_RANGE);
    }

    /** {@return the UTF-8 bytes of {@code s}, as the proof stores a name} */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
