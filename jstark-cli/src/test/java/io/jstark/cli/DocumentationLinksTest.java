package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link in README.md and docs/ leads to a file or directory of the repository, and a link to a heading of
 * a page leads to a heading that page has.
 */
class DocumentationLinksTest {
    @Test
    void everyLinkOfTheReadmeAndTheDocsLeadsToAFileAndHeadingOfTheRepository() {
        Path root = MarkdownPages.root();
        List<Path> pages = MarkdownPages.pages(root);
        assertThat(pages)
                .contains(root.resolve("README.md"), root.resolve("docs/cli.md"), root.resolve("docs/design.md"));
        assertThat(relativeLinkCount(pages)).as("links checked").isGreaterThan(50);
        assertThat(brokenLinks(root, pages)).isEmpty();
    }

    @Test
    void aMissingFileAMissingHeadingAndALinkOutOfTheRepositoryAreFound(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs/bench"));
        Files.writeString(root.resolve("docs/bench/log.txt"), "figures\n");
        Files.writeString(root.resolve("docs/page.md"), """
                # A page

                ## Second heading: with `code`, punctuation (and more)

                [fine](bench/log.txt), [fine too](#a-page), [a heading](#second-heading-with-code-punctuation-and-more),
                [a directory](bench/), [back up](../README.md#the-start), [web](https://example.org/x.md)
                `[not a link](in/code.md)`

                ```bash
                [not a link either](nowhere.md)
                ```
                """);
        Files.writeString(root.resolve("README.md"), """
                # The start

                [no file](docs/missing.md) [no heading](docs/page.md#no-such-heading) [outside](../elsewhere/file.md)
                [absolute](/etc/passwd) [fine](docs/page.md#a-page)
                """);
        List<String> broken = brokenLinks(root, List.of(root.resolve("README.md"), root.resolve("docs/page.md")));
        assertThat(broken).hasSize(4);
        assertThat(broken.get(0)).contains("docs/missing.md");
        assertThat(broken.get(1)).contains("#no-such-heading");
        assertThat(broken.get(2)).contains("../elsewhere/file.md");
        assertThat(broken.get(3)).contains("/etc/passwd");
    }

    @Test
    void headingsGetGitHubsAnchors() {
        assertThat(MarkdownPages.slug("Start-up: warm daemon, AOT cache and preprocessed cache"))
                .isEqualTo("start-up-warm-daemon-aot-cache-and-preprocessed-cache");
        assertThat(MarkdownPages.slug("The warm daemon (the default)")).isEqualTo("the-warm-daemon-the-default");
        assertThat(MarkdownPages.slug("The transcript (label `jstark-proof-v2`)"))
                .isEqualTo("the-transcript-label-jstark-proof-v2");
        assertThat(MarkdownPages.slug("Format 2 (every proof)")).isEqualTo("format-2-every-proof");
        assertThat(MarkdownPages.anchors(
                        Path.of("p.md"), List.of("# Figures", "## Figures", "```", "# Not a heading", "```")))
                .containsExactly("figures", "figures-1");
    }

    /** Each link that leads nowhere, as "page:line: target (why)". */
    static List<String> brokenLinks(Path root, List<Path> pages) {
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = MarkdownPages.read(page);
            for (MarkdownPages.Line line : MarkdownPages.proseLines(page, lines)) {
                for (String target : MarkdownPages.linkTargets(line.text())) {
                    String why = whyBroken(root, page, lines, target);
                    if (why != null) {
                        broken.add(root.relativize(page) + ":" + line.number() + ": " + target + " (" + why + ")");
                    }
                }
            }
        }
        return broken;
    }

    private static long relativeLinkCount(List<Path> pages) {
        long count = 0;
        for (Path page : pages) {
            for (MarkdownPages.Line line : MarkdownPages.proseLines(page, MarkdownPages.read(page))) {
                count += MarkdownPages.linkTargets(line.text()).stream()
                        .filter(t -> !external(t))
                        .count();
            }
        }
        return count;
    }

    /** Why {@code target}, linked from {@code page}, leads nowhere; null when it leads to a file (and heading) of the repository. */
    private static String whyBroken(Path root, Path page, List<String> pageLines, String target) {
        if (external(target)) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? "" : target.substring(hash + 1);
        if (file.startsWith("/")) {
            return "not a relative link";
        }
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(root.normalize())) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (!anchor.isEmpty() && resolved.toString().endsWith(".md")) {
            List<String> lines = resolved.equals(page) ? pageLines : MarkdownPages.read(resolved);
            if (!MarkdownPages.anchors(resolved, lines).contains(anchor)) {
                return "no heading #" + anchor + " in " + root.relativize(resolved);
            }
        }
        return null;
    }

    private static boolean external(String target) {
        return target.matches("(?i)[a-z][a-z0-9+.-]*:.*");
    }
}
