package dev.basalt.sail.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.GraphQueryResult;

import dev.basalt.optimizer.rdf4j.StatementIds;
import dev.basalt.sail.http.RdfXmlStatementWriter.Element;
import dev.basalt.sail.query.KeptGraph;

/**
 * Writes the RDF/XML document of a DESCRIBE answered by its kept plan ({@link KeptGraph}) from its statements' term
 * ids: the bytes {@link RdfXmlStatementWriter#document(GraphQueryResult)} writes for the same statements. An
 * object's encoded form and a property element come from {@link TermFragments} (the shape's prologue keeps the
 * elements); the terms of the other ids of a block of statements (its subjects, which a description rarely shares
 * with another, and the objects and predicates not kept) are read in one batch ({@link StatementIds#terms}), encoded
 * by the statement writer's own methods, and the objects' and elements' bytes kept for the next answers. A subject is
 * compared by id with the one before.
 *
 * <p>Not thread-safe: one instance writes one response, through the {@link RdfXmlStatementWriter} it is given, on
 * the thread that serves it.
 */
final class KeptGraphWriter {
    /** Statements read from the ids at a time. */
    private static final int ID_BLOCK = 64;
    /** The first byte of an object's fragment: whether it is a literal's (its element's end tag still to write). */
    private static final byte LITERAL = 1;
    private static final byte RESOURCE_OBJECT = 0;

    private final RdfXmlStatementWriter out;
    private final TermFragments fragments;
    /** Property elements of this response by predicate id. */
    private long[] propertyIds = new long[8];
    private Element[] propertyElements = new Element[8];
    private int propertyCount;
    /** The property elements of the response's prologue, shared by the responses of its query shape. */
    private TermFragments.Prologue shared;

    KeptGraphWriter(RdfXmlStatementWriter out, TermFragments fragments) {
        this.out = out;
        this.fragments = fragments;
    }

    /**
     * Writes the whole document of the statements {@code ids} reads ({@link KeptGraph#ids}, whose prologue declares
     * {@code namespaces}). The last bytes stay in the writer's buffer for the caller's
     * {@link EncodedOutput#drainLast} or {@link EncodedOutput#drain}.
     */
    void document(Map<String, String> namespaces, StatementIds ids) throws IOException {
        TermFragments.Prologue prologue = fragments.prologue(namespaces);
        if (prologue == null) {
            prologue = keepPrologue(namespaces);
        }
        out.write(prologue.bytes());
        out.usePrefixes(prologue.prefixes());
        shared = prologue;
        long[] spo = new long[3 * ID_BLOCK];
        Resource[] subjects = new Resource[ID_BLOCK];
        byte[][] objects = new byte[ID_BLOCK][];
        Value[] objectTerms = new Value[ID_BLOCK];
        Element[] properties = new Element[ID_BLOCK];
        long[] missing = new long[3 * ID_BLOCK];
        // per statement of the block, where its subject, predicate and object stand in missing (-1: at hand)
        int[] missingAt = new int[3 * ID_BLOCK];
        boolean opened = false;
        long open = 0;
        int n;
        while ((n = ids.nextIds(spo)) > 0) {
            int m = 0;
            long previous = open;
            boolean previousOpened = opened;
            for (int q = 0; q < n; q++) {
                long s = spo[3 * q];
                subjects[q] = null;
                missingAt[3 * q] = -1;
                if (!previousOpened || s != previous) {
                    previousOpened = true;
                    previous = s;
                    missingAt[3 * q] = m;
                    missing[m++] = s;
                }
                missingAt[3 * q + 1] = -1;
                if ((properties[q] = property(spo[3 * q + 1])) == null) {
                    missingAt[3 * q + 1] = m;
                    missing[m++] = spo[3 * q + 1];
                }
                missingAt[3 * q + 2] = -1;
                if ((objects[q] = fragments.object(spo[3 * q + 2])) == null) {
                    missingAt[3 * q + 2] = m;
                    missing[m++] = spo[3 * q + 2];
                }
            }
            if (m > 0) {
                fillMissing(ids.terms(Arrays.copyOf(missing, m)), missingAt, spo, n, subjects, properties,
                        objectTerms);
            }
            for (int q = 0; q < n; q++) {
                long s = spo[3 * q];
                if (!opened || s != open) {
                    if (opened) {
                        out.descriptionEnd();
                    }
                    opened = true;
                    open = s;
                    out.description(subjects[q]);
                }
                Element property = properties[q];
                out.elementStart(property);
                byte[] object = objects[q];
                if (object == null) {
                    // written from its term, and what was written kept (unless the buffer went out meanwhile)
                    int from = out.position();
                    long drained = out.drains();
                    boolean literal = out.object(objectTerms[q]);
                    byte[] fragment = out.writtenSince(from, drained, literal ? LITERAL : RESOURCE_OBJECT);
                    if (fragment != null) {
                        fragments.putObject(spo[3 * q + 2], fragment);
                    }
                    if (literal) {
                        out.write(property.end());
                    }
                } else {
                    out.write(object, 1, object.length - 1);
                    if (object[0] == LITERAL) {
                        out.write(property.end());
                    }
                }
            }
        }
        if (opened) {
            out.descriptionEnd();
        }
        out.end();
    }

    /**
     * The prologue of {@code namespaces} encoded by a writer of its own (the first answer of a shape, or one whose
     * slot another shape took), kept for the shape's next answers.
     */
    private TermFragments.Prologue keepPrologue(Map<String, String> namespaces) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RdfXmlStatementWriter w = new RdfXmlStatementWriter(bytes);
        w.start(namespaces);
        w.drain();
        return fragments.keepPrologue(namespaces, bytes.toByteArray(), w.prefixes());
    }

    private Element property(long id) {
        for (int i = 0; i < propertyCount; i++) {
            if (propertyIds[i] == id) {
                return propertyElements[i];
            }
        }
        Element element = shared.element(id);
        if (element != null) {
            addProperty(id, element);
        }
        return element;
    }

    /**
     * Fills the block's arrays from the terms read for its missing ids ({@code missingAt}: each statement's subject,
     * predicate and object index in {@code terms}, -1 where at hand): the subjects where they change, the property
     * elements not at hand (made and kept; an earlier statement of the block may have made one already), and the
     * objects not at hand, which are kept as they are written.
     */
    private void fillMissing(Value[] terms, int[] missingAt, long[] spo, int n, Resource[] subjects,
            Element[] properties, Value[] objectTerms) {
        for (int q = 0; q < n; q++) {
            if (missingAt[3 * q] >= 0) {
                subjects[q] = (Resource) terms[missingAt[3 * q]];
            }
            if (missingAt[3 * q + 1] >= 0) {
                long p = spo[3 * q + 1];
                Element element = property(p);
                if (element == null) {
                    element = out.element(((IRI) terms[missingAt[3 * q + 1]]).stringValue());
                    addProperty(p, element);
                    shared.keepElement(p, element);
                }
                properties[q] = element;
            }
            if (missingAt[3 * q + 2] >= 0) {
                objectTerms[q] = terms[missingAt[3 * q + 2]];
            }
        }
    }

    private void addProperty(long id, Element element) {
        if (propertyCount == propertyIds.length) {
            propertyIds = Arrays.copyOf(propertyIds, 2 * propertyCount);
            propertyElements = Arrays.copyOf(propertyElements, 2 * propertyCount);
        }
        propertyIds[propertyCount] = id;
        propertyElements[propertyCount++] = element;
    }
}
