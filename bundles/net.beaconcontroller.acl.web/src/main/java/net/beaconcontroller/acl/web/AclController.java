package net.beaconcontroller.acl.web;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import jakarta.servlet.http.HttpServletRequest;
import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.acl.AclRules;
import net.beaconcontroller.acl.IAcl;
import net.beaconcontroller.web.floodlight.FloodlightBody;

/**
 * Floodlight's ACL API ({@code /wm/acl}, ACLWebRoutable) with its paths, keys and texts. Where Floodlight answered a
 * failure with HTTP 200, Beacon keeps the text and sets the status code (400 bad request, 404 no such rule, 409 an
 * earlier rule covers it); a refused request changes nothing.
 */
@RestController
final class AclController {
    private static final String BASE = "/wm/acl";

    private final IAcl acl;

    AclController(IAcl acl) {
        this.acl = acl;
    }

    @GetMapping(BASE + "/rules/json")
    List<Map<String, Object>> rules() {
        return acl.getRules().stream().map(AclJson::toJson).toList();
    }

    @PostMapping(BASE + "/rules/json")
    ResponseEntity<Map<String, String>> add(HttpServletRequest request) throws IOException {
        AclRule rule;
        try {
            rule = AclRules.parse(FloodlightBody.fields(request));
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Failed! " + e.getMessage());
        }
        if (acl.add(rule) instanceof IAcl.Added.Covered) {
            return status(HttpStatus.CONFLICT, "Failed! The new ACL rule matches an existing rule.");
        }
        return status(HttpStatus.OK, "Success! New rule added.");
    }

    @DeleteMapping(BASE + "/rules/json")
    ResponseEntity<Map<String, String>> delete(HttpServletRequest request) throws IOException {
        int id;
        try {
            var text = FloodlightBody.fields(request).getOrDefault("ruleid", "").trim();
            id = Integer.parseInt(text);
        } catch (IllegalArgumentException e) { // NumberFormatException too: Floodlight's one text for both
            return status(HttpStatus.BAD_REQUEST, "Failed! ruleid must be specified as a number.");
        }
        return acl.remove(id).isPresent() ? status(HttpStatus.OK, "Success! Rule deleted")
                : status(HttpStatus.NOT_FOUND, "Failed! a rule with this ID doesn't exist.");
    }

    /**
     * Floodlight's is a GET with no body: it reaches here only when web.floodlightGetClear allows it (see the web
     * server's guard), as a GET that deletes could be sent by any page; POST and DELETE always do.
     */
    @RequestMapping(value = BASE + "/clear/json", method = {RequestMethod.GET, RequestMethod.POST,
        RequestMethod.DELETE})
    ResponseEntity<Void> clear() {
        acl.clear();
        return ResponseEntity.ok().build();
    }

    private static ResponseEntity<Map<String, String>> status(HttpStatus code, String text) {
        return ResponseEntity.status(code).body(Map.of("status", text));
    }
}
