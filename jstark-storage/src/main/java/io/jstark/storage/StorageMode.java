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

    /**
     * {@return the mode {@code text} names: {@code auto}, {@code ram} (or {@code memory}) or {@code disk} (or
     * {@code spill}), any case}
     *
     * @param setting what set it (the variable or the flag), named in the error
     * @param text the value as given
     * @throws InvalidStorageSettingException for any other text
     */
    public static StorageMode parse(String setting, String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "ram", "memory" -> RAM;
            case "disk", "spill" -> DISK;
            default -> throw new InvalidStorageSettingException(setting, text, "expected auto, ram or disk");
        };
    }

    /** {@return the mode in lower case, as flags and reports write it} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
