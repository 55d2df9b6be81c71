package io.jstark.storage;

import java.util.Locale;

/** Where tables' large buffers go. */
public enum StorageMode {
    /** RAM when the predicted peak fits the memory budget with its safety margin; otherwise spill what must go. */
    AUTO,
    /** Everything in RAM, whatever the prediction says. */
    RAM,
    /** Every table buffer in spill files. */
    DISK;

    /** {@code auto}, {@code ram} or {@code disk}, any case. */
    public static StorageMode parse(String setting, String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "ram", "memory" -> RAM;
            case "disk", "spill" -> DISK;
            default -> throw new InvalidStorageSettingException(setting, text, "expected auto, ram or disk");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
