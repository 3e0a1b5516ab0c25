package nodes

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/graphrag/graphrag"
)

// routerdata/policy.json says, for every kind of request in the router's
// training data, which class the router learns for it and why.
//
//go:embed routerdata/policy.json
var policyData []byte

// Classes the router learns. Each maps to a route (classRoute); direct,
// general and action all answer without retrieval but differ in what
// happens when no language model is configured.
const (
	classDirect     = "direct"     // computed or small talk: answered without a model
	classGeneral    = "general"    // general knowledge: a model answers; local evidence wins without one
	classAction     = "action"     // a request to act: graphrag only reads
	classWeb        = "web"        // fresh information
	classFilesystem = "filesystem" // the files as objects
	classLocal      = "local"      // what the user's documents say
)

// routerClasses are the classifier's outputs, in a fixed order (the model
// file stores weights in this order).
var routerClasses = []string{classLocal, classWeb, classFilesystem, classDirect, classGeneral, classAction}

// classRoute is the route a class goes to before the probe and the
// identifier guarantee refine it.
func classRoute(class string) graphrag.Route {
	switch class {
	case classLocal:
		return graphrag.RouteVector
	case classWeb:
		return graphrag.RouteWeb
	case classFilesystem:
		return graphrag.RouteFilesystem
	}
	return graphrag.RouteDirect
}

// policyGroup is one entry of routerdata/policy.json.
type policyGroup struct {
	Class   string   `json:"class"`
	Name    string   `json:"name"`
	Reason  string   `json:"reason"`
	Intents []string `json:"intents"`
}

// routingPolicy maps every training intent to its group.
type routingPolicy struct {
	byIntent map[string]policyGroup
}

func parsePolicy(data []byte) (routingPolicy, error) {
	var doc struct {
		Groups []policyGroup `json:"groups"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return routingPolicy{}, fmt.Errorf("router policy: %w", err)
	}
	p := routingPolicy{byIntent: map[string]policyGroup{}}
	for _, g := range doc.Groups {
		if !slices.Contains(routerClasses, g.Class) {
			return routingPolicy{}, fmt.Errorf("router policy: group %q has unknown class %q (want one of %v)", g.Name, g.Class, routerClasses)
		}
		if g.Reason == "" {
			return routingPolicy{}, fmt.Errorf("router policy: group %q gives no reason", g.Name)
		}
		for _, in := range g.Intents {
			if prev, ok := p.byIntent[in]; ok {
				return routingPolicy{}, fmt.Errorf("router policy: intent %q is in both %q and %q", in, prev.Name, g.Name)
			}
			p.byIntent[in] = g
		}
	}
	return p, nil
}

// class returns the class of a training intent.
func (p routingPolicy) class(intent string) (string, error) {
	g, ok := p.byIntent[intent]
	if !ok {
		return "", fmt.Errorf("router policy: intent %q belongs to no group: add it to nodes/routerdata/policy.json", intent)
	}
	return g.Class, nil
}

// PolicyRoute is the route routerdata/policy.json prescribes for a request
// of the given class (a training row's label) in the configuration of deps
// and opts: what a router that knew the class would do. classRoute is the
// class's route when every service is configured; the policy says what
// changes when one is not:
//   - general knowledge: a language model (deps.Writer) answers it directly;
//     without one nothing else can, so the files are searched unless they
//     hold little about it: the probe decides (weakEvidence);
//   - fresh information: the web when web search (deps.Web) is configured,
//     the files otherwise.
//
// Every other class goes to its route whatever is configured.
// `graphrag eval routing --cv source` scores the router against it.
func PolicyRoute(ctx context.Context, deps Deps, opts Options, query, class string) (graphrag.Route, error) {
	if !slices.Contains(routerClasses, class) {
		return "", fmt.Errorf("policy route: unknown class %q (want one of %v)", class, routerClasses)
	}
	switch {
	case class == classWeb && deps.Web == nil:
		return graphrag.RouteVector, nil
	case class == classGeneral && deps.Writer == nil:
		if deps.Searcher == nil || opts.ProbeK <= 0 {
			return graphrag.RouteDirect, nil
		}
		p, err := newPipeline(deps, opts)
		if err != nil {
			return "", err
		}
		plan := basePlan(query)
		if plan.SourceHint != "" && !p.namesSource(ctx, query, plan.SourceHint) {
			plan.SourceHint = ""
		}
		ev, err := p.localEvidence(ctx, query, plan)
		if err != nil {
			return "", fmt.Errorf("policy route: %w", err)
		}
		if opts.weakEvidence(ev) {
			return graphrag.RouteDirect, nil
		}
		return graphrag.RouteVector, nil
	}
	return classRoute(class), nil
}
