package io.jstark.prover.memory;

import java.util.Locale;

/** Byte counts for people: {@code 512 B}, {@code 1.5 KiB}, {@code 2.0 GiB}; {@link Long#MAX_VALUE} is {@code unlimited}. */
public final class Bytes {
    private Bytes() {}

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
