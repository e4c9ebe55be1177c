package net.beaconcontroller.web.floodlight;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.servlet.http.HttpServletRequest;

/** The request bodies of Floodlight's REST modules (firewall, ACL): one flat JSON object of strings. */
public final class FloodlightBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private FloodlightBody() {
    }

    /**
     * The body as a flat object of scalars (null as empty), read whatever the content type: Floodlight's documented
     * {@code curl -X POST -d '{...}'} sends JSON labelled as a form.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static Map<String, String> fields(HttpServletRequest request) throws IOException {
        return fields(new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** @see #fields(HttpServletRequest) */
    public static Map<String, String> fields(String text) {
        var fields = new LinkedHashMap<String, String>();
        try {
            var tree = JSON.readTree(text);
            if (tree == null || !tree.isObject()) {
                throw new IllegalArgumentException("the body is not a JSON object");
            }
            for (var it = tree.fields(); it.hasNext();) {
                var e = it.next();
                if (e.getValue().isContainerNode()) {
                    throw new IllegalArgumentException("\"" + e.getKey() + "\" must be a string, not "
                            + e.getValue().getNodeType().toString().toLowerCase());
                }
                fields.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asText());
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON (" + e.getOriginalMessage() + ")", e);
        }
        return fields;
    }
}
