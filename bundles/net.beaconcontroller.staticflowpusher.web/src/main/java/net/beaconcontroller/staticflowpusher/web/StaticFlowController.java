package net.beaconcontroller.staticflowpusher.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.servlet.http.HttpServletRequest;
import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.web.floodlight.FloodlightActions;
import net.beaconcontroller.web.floodlight.FloodlightMatch;
import net.beaconcontroller.web.floodlight.FlowFormatException;
import net.beaconcontroller.util.Dpids;

/**
 * Floodlight v1.2's static flow pusher API. Answers are {@code {"status": "..."}} as Floodlight's; a refused
 * request gets 400 (Floodlight said 200) and changes nothing: a flow is checked whole before it is kept or sent.
 */
@RestController
final class StaticFlowController {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final IStaticFlowPusher pusher;

    StaticFlowController(IStaticFlowPusher pusher) {
        this.pusher = pusher;
    }

    @PostMapping({"/wm/staticflowpusher/json", "/wm/staticflowpusher/json/store", "/wm/staticflowentrypusher/json"})
    ResponseEntity<Map<String, String>> add(HttpServletRequest request) {
        StaticFlow flow;
        try {
            flow = FlowRequest.parse(body(request));
        } catch (FlowFormatException e) {
            return status(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        if (pusher.add(flow)) {
            return status(HttpStatus.OK, "Entry pushed");
        }
        return status(HttpStatus.OK, "Entry pushed; switch " + Dpids.toString(flow.dpid())
                + (flow.active() ? " is not connected and gets it when it connects" : " gets it when it is active"));
    }

    @DeleteMapping({"/wm/staticflowpusher/json", "/wm/staticflowentrypusher/json"})
    ResponseEntity<Map<String, String>> delete(HttpServletRequest request) {
        String name;
        try {
            name = body(request).get("name");
        } catch (FlowFormatException e) {
            return status(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        if (name == null) {
            return status(HttpStatus.BAD_REQUEST, "Error! Must specify the name of the flow to delete (key \"name\").");
        }
        return pusher.remove(name).isPresent() ? status(HttpStatus.OK, "Entry " + name + " deleted")
                : status(HttpStatus.NOT_FOUND, "Error! No static flow named " + name + ".");
    }

    @PostMapping("/wm/staticflowpusher/json/delete")
    ResponseEntity<Map<String, String>> deleteByPost(HttpServletRequest request) {
        return delete(request);
    }

    @GetMapping("/wm/staticflowpusher/list/{dpid}/json")
    ResponseEntity<?> list(@PathVariable String dpid) {
        var result = new LinkedHashMap<String, Object>();
        if (dpid.equalsIgnoreCase("all")) {
            for (var f : pusher.getFlows()) {
                entries(result, Dpids.toString(f.dpid())).add(Map.of(f.name(), json(f)));
            }
            return ResponseEntity.ok(result);
        }
        long id;
        try {
            id = Dpids.parse(dpid);
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Error! Invalid switch DPID '" + dpid + "': " + e.getMessage());
        }
        var entries = entries(result, Dpids.toString(id));
        pusher.getFlows().stream().filter(f -> f.dpid() == id).forEach(f -> entries.add(Map.of(f.name(), json(f))));
        return ResponseEntity.ok(result);
    }

    /** Floodlight's GET reaches here only when web.floodlightGetClear allows it (see the web server's guard). */
    @RequestMapping(value = "/wm/staticflowpusher/clear/{dpid}/json",
            method = {RequestMethod.GET, RequestMethod.POST, RequestMethod.DELETE})
    ResponseEntity<Map<String, String>> clear(@PathVariable String dpid) {
        if (dpid.equalsIgnoreCase("all")) {
            pusher.clearAll();
            return status(HttpStatus.OK, "Deleted all flows.");
        }
        long id;
        try {
            id = Dpids.parse(dpid);
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Error! Invalid switch DPID '" + dpid + "': " + e.getMessage());
        }
        pusher.clear(id);
        return status(HttpStatus.OK, "Deleted all flows for switch " + Dpids.toString(id) + ".");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> entries(Map<String, Object> result, String dpid) {
        return (List<Object>) result.computeIfAbsent(dpid, k -> new ArrayList<>());
    }

    /** A flow as Floodlight lists it (numbers quoted). */
    private static Map<String, Object> json(StaticFlow f) {
        var m = new LinkedHashMap<String, Object>();
        m.put("version", "OF_10");
        m.put("command", "ADD");
        m.put("cookie", Long.toUnsignedString(f.cookie()));
        m.put("priority", Integer.toString(f.priority()));
        m.put("idleTimeoutSec", Integer.toString(f.idleTimeout()));
        m.put("hardTimeoutSec", Integer.toString(f.hardTimeout()));
        m.put("outPort", "any");
        m.put("active", Boolean.toString(f.active()));
        m.put("match", FloodlightMatch.toMap(f.match()));
        m.put("actions", f.actions().isEmpty() ? Map.of("none", "drop")
                : Map.of("actions", FloodlightActions.format(f.actions())));
        return m;
    }

    /**
     * The body as a flat object of strings. Read from the raw stream whatever the content type: Floodlight's
     * documented {@code curl -d '{...}'} sends JSON labelled as a form.
     */
    private static Map<String, String> body(HttpServletRequest request) {
        JsonNode tree;
        try {
            var text = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            tree = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new FlowFormatException("Error! Could not parse the flow: the body is not JSON ("
                    + e.getOriginalMessage() + ").");
        } catch (IOException e) {
            throw new FlowFormatException("Error! Could not read the request body: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new FlowFormatException("Error! Could not parse the flow: expected a JSON object of strings.");
        }
        var fields = new LinkedHashMap<String, String>();
        for (var it = tree.fields(); it.hasNext();) {
            var e = it.next();
            if (e.getValue().isContainerNode()) {
                throw new FlowFormatException("Error! \"" + e.getKey() + "\" must be a string, not "
                        + e.getValue().getNodeType().toString().toLowerCase() + ".");
            }
            fields.put(e.getKey(), e.getValue().asText());
        }
        return fields;
    }

    private static ResponseEntity<Map<String, String>> status(HttpStatus code, String text) {
        return ResponseEntity.status(code).body(Map.of("status", text));
    }
}
