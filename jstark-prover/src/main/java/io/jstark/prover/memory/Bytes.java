package io.jstark.prover.memory;

import java.util.Locale;

/** Byte counts for people: {@code 512 B}, {@code 1.5 KiB}, {@code 2.0 GiB}; {@link Long#MAX_VALUE} is {@code unlimited}. */
public final class Bytes {
    private Bytes() {}

    /**
     * A byte count as an option takes it ({@code --memory-budget}, {@code JSTARK_MEMORY_BUDGET}: the form
     * {@code io.jstark.scheduler.ByteSize} parses), rounded up to whole MiB: {@code 545M}, {@code 2G}.
     *
     * @param bytes at least 0
     * @return the text, at least the count when parsed
     */
    public static String asOption(long bytes) {
        long mib = (bytes + (1L << 20) - 1) >>> 20;
        return mib % 1024 == 0 && mib > 0 ? (mib / 1024) + "G" : mib + "M";
    }

    public static String format(long bytes) {
        if (bytes == Long.MAX_VALUE) {
            return "unlimited";
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
}
