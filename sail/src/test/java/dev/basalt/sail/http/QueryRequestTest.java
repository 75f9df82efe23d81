package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import javax.servlet.http.HttpServletRequest;

import org.junit.jupiter.api.Test;

/**
 * The request that RDF4J Server's content negotiation reads answers its parameter questions from the query string
 * {@link SparqlFastPath.Request} decoded, without asking the servlet container to decode it again.
 */
class QueryRequestTest {
    @Test
    void negotiationReadsTheParametersDecodedOnce() throws Exception {
        AtomicInteger containerDecodes = new AtomicInteger();
        HttpServletRequest http = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { HttpServletRequest.class }, (proxy, method, args) -> switch (method.getName()) {
                    case "getMethod" -> "GET";
                    case "getServletPath" -> "/repositories";
                    case "getPathInfo" -> "/repo";
                    case "getQueryString" -> "query=SELECT%20*%20WHERE%20%7B%3Fs%20%3Fp%20%3Fo%7D&infer=false";
                    case "getParameter", "getParameterMap", "getParameterValues", "getParameterNames" -> {
                        containerDecodes.incrementAndGet();
                        yield null;
                    }
                    default -> null;
                });
        SparqlFastPath.Request request = SparqlFastPath.Request.of(http, new HttpServletRequest[1]);
        assertNotNull(request);
        HttpServletRequest negotiation = request.forNegotiation();
        assertNull(negotiation.getParameter("Accept"));
        assertEquals("SELECT * WHERE {?s ?p ?o}", negotiation.getParameter("query"));
        assertEquals("false", negotiation.getParameter("infer"));
        assertEquals(0, containerDecodes.get(), "parameters the servlet container decoded");
    }
}
