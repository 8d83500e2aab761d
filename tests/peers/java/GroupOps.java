import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.RenewDelegationTokenOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;

/**
 * The Admin calls of consumer groups and delegation tokens (Ops.run hands them the ops it does not know).
 */
final class GroupOps {
    private GroupOps() {
    }

    static Object run(Admin admin, String op, Map<String, Object> args) throws Exception {
        return switch (op) {
            case "describeConsumerGroups" -> describeGroups(admin, args);
            case "listConsumerGroupOffsets" -> offsets(admin, (String) args.get("group"));
            case "createDelegationToken" -> token(AdminPeer.await(admin.createDelegationToken(
                    new CreateDelegationTokenOptions().maxlifeTimeMs(((Number) args.getOrDefault("maxLifeMs", -1)).longValue())
            ).delegationToken()));
            case "describeDelegationToken" -> {
                List<Object> out = new ArrayList<>();
                for (DelegationToken t : AdminPeer.await(admin.describeDelegationToken().delegationTokens())) {
                    out.add(token(t));
                }
                yield out;
            }
            case "renewDelegationToken" -> AdminPeer.await(admin.renewDelegationToken(hmac(args),
                    new RenewDelegationTokenOptions().renewTimePeriodMs(((Number) args.get("periodMs")).longValue())
            ).expiryTimestamp());
            case "expireDelegationToken" -> AdminPeer.await(admin.expireDelegationToken(hmac(args),
                    new ExpireDelegationTokenOptions().expiryTimePeriodMs(((Number) args.get("periodMs")).longValue())
            ).expiryTimestamp());
            default -> throw new IllegalArgumentException("unknown op " + op);
        };
    }

    private static byte[] hmac(Map<String, Object> args) {
        return Base64.getDecoder().decode((String) args.get("hmac"));
    }

    private static Object token(DelegationToken token) {
        TokenInformation info = token.tokenInfo();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tokenId", info.tokenId());
        out.put("hmac", token.hmacAsBase64String());
        out.put("owner", info.owner().toString());
        out.put("requester", info.tokenRequester().toString());
        List<Object> renewers = new ArrayList<>();
        for (KafkaPrincipal renewer : info.renewers()) {
            renewers.add(renewer.toString());
        }
        out.put("renewers", renewers);
        out.put("issue", info.issueTimestamp());
        out.put("expiry", info.expiryTimestamp());
        out.put("max", info.maxTimestamp());
        return out;
    }

    private static Object describeGroups(Admin admin, Map<String, Object> args) throws Exception {
        Map<String, Object> out = new TreeMap<>();
        Map<String, ConsumerGroupDescription> found = AdminPeer.await(
                admin.describeConsumerGroups(Ops.strings(args, "groups")).all());
        found.forEach((id, g) -> {
            Map<String, Object> each = new LinkedHashMap<>();
            each.put("state", g.state().name());
            each.put("type", g.type().name());
            each.put("assignor", g.partitionAssignor());
            each.put("coordinator", g.coordinator().id());
            List<Object> members = new ArrayList<>();
            for (MemberDescription m : g.members()) {
                Map<String, Object> member = new LinkedHashMap<>();
                member.put("clientId", m.clientId());
                List<Object> assigned = new ArrayList<>();
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    assigned.add(tp.topic() + "-" + tp.partition());
                }
                assigned.sort(null);
                member.put("assignment", assigned);
                members.add(member);
            }
            each.put("members", members);
            out.put(id, each);
        });
        return out;
    }

    private static Object offsets(Admin admin, String group) throws Exception {
        Map<String, Object> out = new TreeMap<>();
        Map<TopicPartition, OffsetAndMetadata> found = AdminPeer.await(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        found.forEach((tp, offset) -> out.put(tp.topic() + "-" + tp.partition(), offset == null ? null : offset.offset()));
        return out;
    }
}
