package io.jstark.scheduler;

import io.jstark.prover.memory.Bytes;


/**
 * Byte counts as people write them: digits with an optional suffix K, M, G or T (powers of 1024,
 * case-insensitive), e.g. {@code 512M}, {@code 2g}, {@code 1073741824}; or {@code unlimited}
 * ({@link Long#MAX_VALUE}).
 */
public final class ByteSize {
    /** The word for no limit, parsed to {@link Long#MAX_VALUE}. */
    public static final String UNLIMITED = "unlimited";
    static final String FORMS = "digits with an optional K, M, G or T suffix (powers of 1024), e.g. 512M, 2g, 1073741824, or '"
            + UNLIMITED + "'";

    private ByteSize() {}

    /**
     * Parses a byte count.
     *
     * @param text the count as typed; surrounding blanks are ignored
     * @return the count in bytes, at least 0; {@link Long#MAX_VALUE} for {@value #UNLIMITED}
     * @throws IllegalArgumentException naming the text and the accepted forms when it is none of them, or
     *     when the count does not fit in a long
     */
    public static long parse(String text) {
        String s = text.strip();
        if (s.equalsIgnoreCase(UNLIMITED)) {
            return Long.MAX_VALUE;
        }
        int shift = switch (s.isEmpty() ? ' ' : Character.toUpperCase(s.charAt(s.length() - 1))) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            case 'T' -> 40;
            default -> 0;
        };
        String digits = shift == 0 ? s : s.substring(0, s.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("'" + text + "' is not a byte count: expected " + FORMS);
        }
        long count;
        try {
            count = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large: at most " + Long.MAX_VALUE + " bytes", e);
        }
        if (count > Long.MAX_VALUE >> shift) {
            throw new IllegalArgumentException("'" + text + "' is too large: at most " + Long.MAX_VALUE + " bytes");
        }
        return count << shift;
    }

    /**
     * A short human form: {@code 512 B}, {@code 1.5 KiB}, {@code 2.0 GiB}, or {@code unlimited}.
     *
     * @param bytes a count in bytes; {@link Long#MAX_VALUE} for unlimited
     * @return the count with a binary unit, for messages (not parsed back exactly)
     */
    public static String format(long bytes) {
        return Bytes.format(bytes);
    }
}
