package io.jstark.profile;

import java.io.IOException;

/** A timeline file that is not one: names the source and the line of the offending record. */
public final class TimelineFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public TimelineFormatException(String source, long line, String problem) {
        super(source + ":" + line + ": " + problem);
    }
}
