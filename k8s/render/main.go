// Command render builds each kustomize overlay named on the command line (kustomize's own
// library, as `kubectl kustomize` runs it) and checks every resource it produces before writing
// the result: built-in kinds and cert-manager's are decoded strictly into their Go API types (an
// unknown or misspelt field, a wrong type or a duplicate key fails), and any other kind must be
// one of the operator resources the manifests are written for. The rendered streams are what
// scripts/k8s/manifests.test.ts checks against the services' code.
//
//	render -out var/k8s k8s/overlays/dev k8s/overlays/prod
//
// writes var/k8s/dev.yaml and var/k8s/prod.yaml, or names every problem and exits 1.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	certmanagerv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Operator resources (CRDs) whose Go types are not available from the Go proxy (Strimzi is Java;
// the MongoDB Community operator's module is not served; PrometheusRule is checked the same way): only their kinds are checked here,
// and the test checks the fields the platform relies on.
var operatorKinds = map[string]bool{
	"kafka.strimzi.io/v1beta2, Kind=Kafka":                   true,
	"kafka.strimzi.io/v1beta2, Kind=KafkaNodePool":           true,
	"kafka.strimzi.io/v1beta2, Kind=KafkaTopic":              true,
	"mongodbcommunity.mongodb.com/v1, Kind=MongoDBCommunity": true,
	"monitoring.coreos.com/v1, Kind=PrometheusRule":          true,
}

func main() {
	out := flag.String("out", "var/k8s", "folder for <overlay>.yaml")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: render -out <dir> <overlay dir>...")
		os.Exit(2)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		appsv1.AddToScheme, autoscalingv2.AddToScheme, batchv1.AddToScheme, corev1.AddToScheme,
		networkingv1.AddToScheme, policyv1.AddToScheme, certmanagerv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			fail(err)
		}
	}
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	problems := 0
	for _, overlay := range flag.Args() {
		rendered, errs := render(overlay, scheme, strict)
		for _, err := range errs {
			fmt.Fprintf(os.Stderr, "%s: %v\n", overlay, err)
		}
		problems += len(errs)
		if len(errs) == 0 {
			file := filepath.Join(*out, filepath.Base(overlay)+".yaml")
			if err := os.WriteFile(file, rendered, 0o644); err != nil {
				fail(err)
			}
			fmt.Printf("%s: rendered and checked -> %s\n", overlay, file)
		}
	}
	if problems > 0 {
		os.Exit(1)
	}
}

func render(overlay string, scheme *runtime.Scheme, strict *json.Serializer) ([]byte, []error) {
	kustomizer := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := kustomizer.Run(filesys.MakeFsOnDisk(), overlay)
	if err != nil {
		return nil, []error{err}
	}
	var errs []error
	for _, resource := range resources.Resources() {
		id := resource.CurId()
		gvk := schema.GroupVersionKind{Group: id.Group, Version: id.Version, Kind: id.Kind}
		if operatorKinds[gvk.String()] {
			continue
		}
		if !scheme.Recognizes(gvk) {
			errs = append(errs, fmt.Errorf("%s: kind %s is neither a checked API type nor a known operator resource", id, gvk))
			continue
		}
		yaml, err := resource.AsYAML()
		if err == nil {
			_, _, err = strict.Decode(yaml, nil, nil)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", id, err))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	rendered, err := resources.AsYaml()
	if err != nil {
		return nil, []error{err}
	}
	return rendered, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
