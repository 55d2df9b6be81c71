package io.jstark.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's documentation as a reader meets it: README.md and every page under docs/, their links, their
 * headings' anchors (as GitHub names them), and the lines of their fenced code blocks.
 */
final class MarkdownPages {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)\\s*([\\w+-]*).*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    private static final Pattern LINK =
            Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION =
            Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    private MarkdownPages() {}

    /** A page's line, numbered from 1, for messages that say where. */
    record Line(Path page, int number, String text) {
        @Override
        public String toString() {
            return page + ":" + number + ": " + text.strip();
        }
    }

    /** A fenced code block's line, with the block's info string ({@code bash}, {@code java}, or empty). */
    record CodeLine(Line line, String language) {}

    /** The repository's root: the directory above this module that holds README.md and the parent pom. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null
                && !(Files.isRegularFile(dir.resolve("README.md"))
                        && Files.isDirectory(dir.resolve("docs"))
                        && Files.isRegularFile(dir.resolve("pom.xml")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no repository root with README.md and docs/ above "
                    + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** README.md and every .md file under docs/, in a fixed order. */
    static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
                    .sorted()
                    .forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<String> read(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines inside fenced code blocks. */
    static List<CodeLine> codeLines(Path page, List<String> lines) {
        String[] languages = fenceLanguages(lines);
        List<CodeLine> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (languages[i] != null && !FENCE.matcher(lines.get(i)).matches()) {
                out.add(new CodeLine(new Line(page, i + 1, lines.get(i)), languages[i]));
            }
        }
        return out;
    }

    /** The lines outside fenced code blocks (the fences too left out). */
    static List<Line> proseLines(Path page, List<String> lines) {
        String[] languages = fenceLanguages(lines);
        List<Line> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (languages[i] == null) {
                out.add(new Line(page, i + 1, lines.get(i)));
            }
        }
        return out;
    }

    /**
     * For each line, the info string of the fenced block it opens, lies in or closes ({@code ""} when the block has
     * none), or null outside blocks. A block ends at a line that is its opening fence alone.
     */
    private static String[] fenceLanguages(List<String> lines) {
        String[] languages = new String[lines.size()];
        String fence = null;
        String language = null;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = FENCE.matcher(lines.get(i));
            if (fence == null && m.matches()) {
                fence = m.group(1);
                language = m.group(2).toLowerCase(Locale.ROOT);
                languages[i] = language;
            } else if (fence != null) {
                languages[i] = language;
                if (lines.get(i).strip().equals(fence)) {
                    fence = null;
                }
            }
        }
        return languages;
    }

    /** The inline code spans of a prose line, without their backticks. */
    static List<String> inlineCode(String line) {
        List<String> spans = new ArrayList<>();
        Matcher m = INLINE_CODE.matcher(line);
        while (m.find()) {
            spans.add(m.group().substring(1, m.group().length() - 1));
        }
        return spans;
    }

    /** The targets of the links (inline and reference definitions) of a prose line, code spans left out. */
    static List<String> linkTargets(String line) {
        String text = INLINE_CODE.matcher(line).replaceAll(" ");
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            targets.add(m.group(1));
        }
        Matcher definition = REFERENCE_DEFINITION.matcher(text);
        if (definition.matches()) {
            targets.add(definition.group(1));
        }
        return targets;
    }

    /**
     * The anchors a page offers: each heading's GitHub name (lower case, punctuation dropped, spaces as hyphens, a repeated
     * name suffixed -1, -2, ...) and every {@code <a name=...>} or {@code <a id=...>}.
     */
    static Set<String> anchors(Path page, List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        for (Line line : proseLines(page, lines)) {
            Matcher heading = HEADING.matcher(line.text());
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                String unique = slug;
                for (int n = 1; anchors.contains(unique); n++) {
                    unique = slug + "-" + n;
                }
                anchors.add(unique);
            }
            Matcher html = HTML_ANCHOR.matcher(line.text());
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /** The anchor GitHub gives a heading: its text as rendered, lower case, without punctuation, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
        StringBuilder slug = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }
}
