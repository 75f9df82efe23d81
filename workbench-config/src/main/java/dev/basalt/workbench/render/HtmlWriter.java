package dev.basalt.workbench.render;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Set;

import javax.xml.transform.Result;

import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.ext.LexicalHandler;

/**
 * Writes the SAX events of a transformation's result as an HTML5 document, the text a browser parses into the same
 * DOM its own XSLT engine would have built from the result tree.
 *
 * <p>Why not the XSLT processor's {@code html} output method: the Workbench's stylesheets write their elements in the
 * XHTML namespace, and XSLT 1.0 serialises namespaced elements as XML even under {@code method="html"}, so an empty
 * {@code <script src="..."></script>} would come out as {@code <script .../>}, which an HTML parser reads as an
 * unclosed script swallowing the rest of the page. Here every element that is not void gets an end tag, void
 * elements ({@code br}, {@code input}, ...) get none, namespace declarations are dropped (HTML has no namespaces
 * in its syntax), and script and style text is written raw. Text is written as it is, so the HTML parser drops a
 * newline right after {@code <pre>} or {@code <textarea>} exactly as it did in Chromium, whose XSLT serialised its
 * result and parsed it again (the Workbench's update form starts its textarea with one). The document starts with
 * {@code <!DOCTYPE html>} (standards mode, as {@code about:legacy-compat} gives in the browser).
 *
 * <p>One instance per transformation; not thread-safe. Honours the result tree's
 * {@link Result#PI_DISABLE_OUTPUT_ESCAPING} instructions; other processing instructions have no HTML form and
 * are left out.
 */
final class HtmlWriter implements ContentHandler, LexicalHandler {
    private static final Set<String> VOID_ELEMENTS = Set.of("area", "base", "br", "col", "embed", "hr", "img",
            "input", "link", "meta", "param", "source", "track", "wbr");
    private static final Set<String> RAW_TEXT_ELEMENTS = Set.of("script", "style");

    private final Writer out;
    /** The element whose text is raw (script or style), or null. */
    private String rawTextElement;
    private boolean escaping = true;

    HtmlWriter(Writer out) {
        this.out = out;
    }

    @Override
    public void startDocument() throws SAXException {
        write("<!DOCTYPE html>\n");
    }

    @Override
    public void endDocument() throws SAXException {
        try {
            out.flush();
        } catch (IOException e) {
            throw new SAXException(e);
        }
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
        String name = elementName(localName, qName);
        StringBuilder tag = new StringBuilder(64).append('<').append(name);
        for (int i = 0; i < atts.getLength(); i++) {
            String attribute = atts.getQName(i);
            if (attribute.isEmpty()) {
                attribute = atts.getLocalName(i);
            }
            if (attribute.equals("xmlns") || attribute.startsWith("xmlns:")) {
                continue;
            }
            tag.append(' ').append(attribute).append("=\"");
            escape(atts.getValue(i), true, tag);
            tag.append('"');
        }
        tag.append('>');
        if (RAW_TEXT_ELEMENTS.contains(name)) {
            rawTextElement = name;
        }
        write(tag);
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        String name = elementName(localName, qName);
        rawTextElement = null;
        if (!VOID_ELEMENTS.contains(name)) {
            write("</" + name + ">");
        }
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
        String text = new String(ch, start, length);
        if (rawTextElement != null) {
            // The only thing raw text cannot hold is its own end tag.
            write(text.replaceAll("(?i)</(" + rawTextElement + ")", "<\\\\/$1"));
        } else if (!escaping) {
            write(text);
        } else {
            StringBuilder escaped = new StringBuilder(length + 16);
            escape(text, false, escaped);
            write(escaped);
        }
    }

    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
        characters(ch, start, length);
    }

    @Override
    public void processingInstruction(String target, String data) {
        if (Result.PI_DISABLE_OUTPUT_ESCAPING.equals(target)) {
            escaping = false;
        } else if (Result.PI_ENABLE_OUTPUT_ESCAPING.equals(target)) {
            escaping = true;
        }
    }

    @Override
    public void comment(char[] ch, int start, int length) throws SAXException {
        write("<!--" + new String(ch, start, length).replace("--", "- -") + "-->");
    }

    @Override
    public void setDocumentLocator(Locator locator) {
        // positions in the result tree are of no use to the serialisation
    }

    @Override
    public void startPrefixMapping(String prefix, String uri) {
        // HTML syntax has no namespace declarations
    }

    @Override
    public void endPrefixMapping(String prefix) {
        // as above
    }

    @Override
    public void skippedEntity(String name) {
        // a result tree has no unexpanded entities
    }

    @Override
    public void startDTD(String name, String publicId, String systemId) {
        // startDocument writes the HTML5 doctype
    }

    @Override
    public void endDTD() {
        // as above
    }

    @Override
    public void startEntity(String name) {
        // entities are expanded in the result tree
    }

    @Override
    public void endEntity(String name) {
        // as above
    }

    @Override
    public void startCDATA() {
        // CDATA text is escaped like any other text
    }

    @Override
    public void endCDATA() {
        // as above
    }

    /** HTML element names are case-insensitive; the local name without any prefix, lower-cased. */
    private static String elementName(String localName, String qName) {
        String name = localName == null || localName.isEmpty() ? qName : localName;
        int colon = name.indexOf(':');
        return (colon >= 0 ? name.substring(colon + 1) : name).toLowerCase(Locale.ROOT);
    }

    private static void escape(String text, boolean attribute, StringBuilder to) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> to.append("&amp;");
                case '<' -> to.append(attribute ? "<" : "&lt;");
                case '>' -> to.append(attribute ? ">" : "&gt;");
                case '"' -> to.append(attribute ? "&quot;" : "\"");
                case '\u00A0' -> to.append("&nbsp;");
                default -> to.append(c);
            }
        }
    }

    private void write(CharSequence text) throws SAXException {
        try {
            out.append(text);
        } catch (IOException e) {
            throw new SAXException(e);
        }
    }
}
