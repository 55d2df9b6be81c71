package io.jstark.instrument;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The JFR twin of a span: begun when the span opens and committed when it closes, on the opening thread, so
 * that JFR tools show jstark's phases next to GC, allocation and sampling events. Costs nothing beyond one
 * allocation per span unless a JFR recording has the event enabled. {@link LiveSpan} does not touch this class
 * until JFR is initialized in this JVM (a recording started, by {@code -XX:StartFlightRecording}, {@code jcmd} or a
 * capture): loading and initializing an event class has JFR set up its event machinery, 0.15 to 0.3 s in a cold
 * JVM where JFR never started, for an event no recording could want.
 */
@Name(SpanEvent.NAME)
@Label("jstark Span")
@Category("jstark")
@Description("A timed interval of jstark work")
@StackTrace(false)
final class SpanEvent extends Event {
    static final String NAME = "io.jstark.Span";

    @Label("Label")
    String label;

    @Label("Span Id")
    long spanId;

    @Label("Parent Id")
    @Description("0 for a root span")
    long parentId;

    @Label("Fields")
    @Description("The span's fields as key=value pairs")
    String fields;

    /** A begun event, or null when no recording wants it (the common case: no allocation kept). */
    static SpanEvent beginIfEnabled(String label, long spanId, long parentId) {
        SpanEvent event = new SpanEvent();
        if (!event.isEnabled()) {
            return null;
        }
        event.label = label;
        event.spanId = spanId;
        event.parentId = parentId;
        event.begin();
        return event;
    }

    void endAndCommit(java.util.Map<String, Object> spanFields) {
        end();
        if (shouldCommit()) {
            fields = render(spanFields);
            commit();
        }
    }

    private static String render(java.util.Map<String, Object> spanFields) {
        if (spanFields.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        spanFields.forEach((k, v) -> {
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(k).append('=').append(v);
        });
        return out.toString();
    }
}
