package io.jstark.instrument;

import java.util.Locale;

/**
 * Byte counts as people write and read them, in one place: parsed from digits with an optional suffix K, M, G or T
 * (powers of 1024, case-insensitive), e.g. {@code 512M}, {@code 2g}, {@code 1073741824}, or {@code unlimited}
 * ({@link #UNLIMITED}); printed as {@code 512 B}, {@code 1.5 KiB}, {@code 2.0 GiB}, as an option's value
 * ({@link #asOption}) or as a column of MiB ({@link #mib}).
 */
public final class ByteSize {
    /** The count that means no limit: a budget of every byte. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** The word for {@link #UNLIMITED}, as {@link #parse} reads it and {@link #format} prints it. */
    public static final String UNLIMITED_WORD = "unlimited";

    static final String FORMS =
            "digits with an optional K, M, G or T suffix (powers of 1024), e.g. 512M, 2g, 1073741824, or '"
                    + UNLIMITED_WORD + "'";
    private static final double MIB = 1024.0 * 1024.0;

    private ByteSize() {}

    /**
     * Parses a byte count.
     *
     * @param text the count as typed; surrounding blanks are ignored
     * @return the count in bytes, at least 0; {@link #UNLIMITED} for {@value #UNLIMITED_WORD}
     * @throws IllegalArgumentException naming the text and the accepted forms when it is none of them, or
     *     when the count does not fit in a long
     */
    public static long parse(String text) {
        String s = text.strip();
        if (s.equalsIgnoreCase(UNLIMITED_WORD)) {
            return UNLIMITED;
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
     * A short human form: {@code 512 B}, {@code 1.5 KiB}, {@code 2.0 GiB}, or {@value #UNLIMITED_WORD}.
     *
     * @param bytes a count in bytes; {@link #UNLIMITED} for no limit
     * @return the count with a binary unit, for messages (not parsed back exactly)
     */
    public static String format(long bytes) {
        if (bytes == UNLIMITED) {
            return UNLIMITED_WORD;
        }
        if (bytes < 0) {
            return "-" + format(-bytes);
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /**
     * A byte count as an option takes it ({@code --memory-budget}, {@code JSTARK_MEMORY_BUDGET}: the form
     * {@link #parse} reads), rounded up to whole MiB: {@code 545M}, {@code 2G}.
     *
     * @param bytes at least 0
     * @return the text, at least the count when parsed
     */
    public static String asOption(long bytes) {
        long mib = (bytes + (1L << 20) - 1) >>> 20;
        return mib % 1024 == 0 && mib > 0 ? (mib / 1024) + "G" : mib + "M";
    }

    /**
     * A count for a column headed MiB: {@code 1,234.5}; a negative count (none measured) is {@code -}.
     *
     * @param bytes a count in bytes, or a negative number for none
     * @return the count in MiB with one decimal and grouping, or {@code -}
     */
    public static String mib(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%,.1f", bytes / MIB);
    }
}
