package io.jstark.profile;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads span fields and timeline metadata with Jackson's streaming API. The recorder has already narrowed
 * them to strings, longs, doubles, booleans, null, maps and lists ({@link io.jstark.instrument.SpanRecord}), so any
 * other value can only come from a caller's hand-made record and is written as its string.
 */
final class JsonValues {
    private JsonValues() {}

    static void write(JsonGenerator out, Object value) throws IOException {
        switch (value) {
            case null -> out.writeNull();
            case String s -> out.writeString(s);
            case Long l -> out.writeNumber(l);
            case Double d -> out.writeNumber(d);
            case Boolean b -> out.writeBoolean(b);
            case Map<?, ?> map -> writeObject(out, map);
            case List<?> list -> {
                out.writeStartArray();
                for (Object item : list) {
                    write(out, item);
                }
                out.writeEndArray();
            }
            default -> out.writeString(value.toString());
        }
    }

    static void writeObject(JsonGenerator out, Map<?, ?> map) throws IOException {
        out.writeStartObject();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            out.writeFieldName(String.valueOf(entry.getKey()));
            write(out, entry.getValue());
        }
        out.writeEndObject();
    }

    /** Reads the value starting at the parser's current token. */
    static Object read(JsonParser in) throws IOException {
        JsonToken token = in.currentToken();
        return switch (token) {
            case START_OBJECT -> readObject(in);
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (in.nextToken() != JsonToken.END_ARRAY) {
                    list.add(read(in));
                }
                yield Collections.unmodifiableList(list);
            }
            case VALUE_STRING -> in.getText();
            case VALUE_NUMBER_INT ->
                in.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? in.getText() : (Object) in.getLongValue();
            case VALUE_NUMBER_FLOAT -> in.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected JSON token " + token);
        };
    }

    /** Reads the object starting at the parser's current START_OBJECT token. */
    static Map<String, Object> readObject(JsonParser in) throws IOException {
        if (in.currentToken() != JsonToken.START_OBJECT) {
            throw new IOException("expected a JSON object, found " + in.currentToken());
        }
        Map<String, Object> map = new LinkedHashMap<>();
        while (in.nextToken() == JsonToken.FIELD_NAME) {
            String key = in.currentName();
            in.nextToken();
            map.put(key, read(in));
        }
        return Collections.unmodifiableMap(map);
    }
}
