package dev.basalt.workbench.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.basalt.workbench.render.StylesheetInstruction.Outcome;

/** The prolog scan that decides, from a response's first bytes, whether it is a page to transform. */
class StylesheetInstructionTest {
    private static StylesheetInstruction.Scan scan(String prolog) {
        byte[] bytes = prolog.getBytes(StandardCharsets.UTF_8);
        return StylesheetInstruction.scan(bytes, bytes.length);
    }

    private static void found(String href, String prolog) {
        StylesheetInstruction.Scan scan = scan(prolog);
        assertEquals(Outcome.FOUND, scan.outcome(), prolog);
        assertEquals(href, scan.instruction().href(), prolog);
    }

    @Test
    void findsTheInstructionBrowsersApply() {
        found("/wb/t/query.xsl", "<?xml version='1.0' encoding='UTF-8'?><?xml-stylesheet type='text/xsl' "
                + "href='/wb/t/query.xsl'?><sparql/>");
        found("a.xsl?x=1&y=2", "\uFEFF<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE page [<!ENTITY e \">\">]>\n"
                + "<?xml-stylesheet href=\"a.xsl?x=1&amp;y=2\" type=\"application/xslt+xml\"?>");
        found("b.xsl", "<?xml-stylesheet type='text/css' href='a.css'?><?xml-stylesheet type='text/xsl' "
                + "href='a.xsl' alternate='yes'?><?xml-stylesheet type='text/xsl' href='b.xsl'?>");
    }

    @Test
    void answersNoneOnceTheRootElementStartsWithoutOne() {
        assertEquals(Outcome.NONE, scan("<?xml version='1.0'?><sparql><?xml-stylesheet type='text/xsl' href='a'?>")
                .outcome());
        assertEquals(Outcome.NONE, scan("<?xml-stylesheet type='text/css' href='a.css'?><r/>").outcome());
        assertEquals(Outcome.NONE, scan("<?xml-stylesheetx type='text/xsl' href='a.xsl'?><r/>").outcome());
        assertEquals(Outcome.NONE, scan("{\"head\": {}}").outcome());
    }

    @Test
    void asksForMoreWhileThePrologIsCut() {
        String full = "<?xml version='1.0'?><!-- a comment --><?xml-stylesheet type='text/xsl' href='a.xsl'?><r/>";
        int found = full.indexOf("?><r/>");
        for (int cut = 0; cut < full.length(); cut++) {
            assertEquals(cut <= found + 1 ? Outcome.NEED_MORE : Outcome.FOUND, scan(full.substring(0, cut)).outcome(),
                    full.substring(0, cut));
        }
    }
}
