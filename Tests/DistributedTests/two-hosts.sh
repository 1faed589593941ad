#!/bin/sh
# Two hosts for real, on one machine: network namespaces A and B joined by a veth pair
# (10.231.R.1 and 10.231.R.2), each with its own host name (host-a, host-b), and
# `mpirun` in A starting rank 1 in B through a launcher agent that enters B's namespace where
# ssh would log in (Open MPI's plm_rsh_agent), so no ssh keys are needed. Open MPI's control
# and data traffic is confined to that subnet; nothing leaves the two namespaces.
#
# Usage (as root): two-hosts.sh SCREENLAB ARGUMENTS...
# Runs `SCREENLAB ARGUMENTS...` on 2 ranks, one per namespace: e.g. `train E.yaml --runs R`, or
# `bench allreduce` for the sum's time over TCP.
set -eu
bin=$1; shift
tag=$$
subnet=10.231.$((tag % 250))
a=sl-a-$tag; b=sl-b-$tag
work=$(mktemp -d /tmp/two-hosts.XXXXXX)
cleanup() { ip netns del "$a" 2>/dev/null || true; ip netns del "$b" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
ip netns add "$a"
ip netns add "$b"
ip link add "va$tag" type veth peer name "vb$tag"
ip link set "va$tag" netns "$a"
ip link set "vb$tag" netns "$b"
ip -n "$a" addr add "$subnet.1/24" dev "va$tag"
ip -n "$b" addr add "$subnet.2/24" dev "vb$tag"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "va$tag" up
ip -n "$b" link set "vb$tag" up

# Open MPI calls the agent as `AGENT HOST COMMAND...`, COMMAND being a line for the remote shell.
cat > "$work/agent" <<AGENT
#!/bin/sh
shift
exec ip netns exec $b unshare --uts sh -c "hostname host-b; \$*"
AGENT
chmod +x "$work/agent"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ip netns exec "$a" unshare --uts sh -c 'hostname host-a; exec "$@"' sh \
  mpirun --host "$subnet.1:1,$subnet.2:1" -np 2 \
    --mca plm_rsh_agent "$work/agent" --mca plm_rsh_no_tree_spawn 1 \
    --mca btl tcp,self --mca btl_tcp_if_include "$subnet.0/24" --mca oob_tcp_if_include "$subnet.0/24" \
    "$bin" "$@"
