package io.jstark.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jstark.protocol.Statement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The expected statement as a JSON file ({@code prove --write-statement} writes it, {@code verify
 * --expect} reads it). Public inputs are decimal strings (unsigned 64-bit field elements do not fit a JSON
 * number exactly); a height is {@code "logHeight": k} or a range {@code "logHeight": {"min": a, "max": b}}:
 *
 * <pre>
 * {"format": "jstark-statement-1", "tables": [
 *   {"name": "cpu", "definition": "cpu", "logHeight": 10, "publicInputs": ["7", "0"]},
 *   {"name": "range16", "definition": "range16", "logHeight": {"min": 16, "max": 16}, "publicInputs": []}]}
 * </pre>
 */
final class StatementFile {
    static final String FORMAT = "jstark-statement-1";
    /** A statement file larger than this is not one (thousands of tables fit in far less). */
    private static final long MAX_BYTES = 16 << 20;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StatementFile() {}

    static void write(Statement statement, Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        ArrayNode tables = root.putArray("tables");
        for (Statement.Table t : statement.tables()) {
            ObjectNode table = tables.addObject();
            table.put("name", t.name());
            table.put("definition", t.definition());
            if (t.minLogHeight() == t.maxLogHeight()) {
                table.put("logHeight", t.minLogHeight());
            } else {
                table.putObject("logHeight").put("min", t.minLogHeight()).put("max", t.maxLogHeight());
            }
            ArrayNode inputs = table.putArray("publicInputs");
            for (long v : t.publicInputs()) {
                inputs.add(Long.toUnsignedString(v));
            }
        }
        ProveOutputs.createParent(file);
        Files.writeString(file, JSON.writeValueAsString(root) + System.lineSeparator());
    }

    /** @throws Main.InputException naming the file and what in it is wrong */
    static Statement read(Path file) throws IOException {
        ProofFiles.requireFile(file, "a statement file");
        if (Files.size(file) > MAX_BYTES) {
            throw new Main.InputException(file + " holds " + Files.size(file) + " bytes: not a statement file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new Main.InputException(file + " is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !FORMAT.equals(root.path("format").asText())) {
            throw new Main.InputException(file + " is not a statement file: it lacks \"format\": \"" + FORMAT + "\"");
        }
        JsonNode tables = root.path("tables");
        if (!tables.isArray() || tables.isEmpty()) {
            throw new Main.InputException(file + ": \"tables\" must be a non-empty array");
        }
        List<Statement.Table> out = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            out.add(table(file, i, tables.get(i)));
        }
        return new Statement(out);
    }

    private static Statement.Table table(Path file, int index, JsonNode t) {
        String where = file + ": table " + index;
        String name = text(t, "name", where);
        String definition = text(t, "definition", where);
        JsonNode height = t.path("logHeight");
        int min;
        int max;
        if (height.isInt()) {
            min = height.intValue();
            max = min;
        } else if (height.path("min").isInt() && height.path("max").isInt()) {
            min = height.path("min").intValue();
            max = height.path("max").intValue();
        } else {
            throw new Main.InputException(where + ": \"logHeight\" must be an integer or {\"min\": a, \"max\": b}");
        }
        JsonNode inputs = t.path("publicInputs");
        if (!inputs.isArray()) {
            throw new Main.InputException(where + ": \"publicInputs\" must be an array of decimal strings");
        }
        long[] values = new long[inputs.size()];
        for (int k = 0; k < values.length; k++) {
            try {
                values[k] = Long.parseUnsignedLong(inputs.get(k).asText());
            } catch (NumberFormatException e) {
                throw new Main.InputException(where + ": public input " + k + " '" + inputs.get(k).asText()
                        + "' is not an unsigned 64-bit decimal");
            }
        }
        try {
            return new Statement.Table(name, definition, min, max, values);
        } catch (IllegalArgumentException e) {
            throw new Main.InputException(where + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode t, String field, String where) {
        JsonNode v = t.path(field);
        if (!v.isTextual() || v.asText().isEmpty()) {
            throw new Main.InputException(where + ": \"" + field + "\" must be a non-empty string");
        }
        return v.asText();
    }
}
