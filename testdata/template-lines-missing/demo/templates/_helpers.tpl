{{/* Labels of every object */}}
{{- define "demo.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* A volume every pod mounts */}}
{{- define "demo.tmpVolume" -}}
- name: tmp
  emptyDir: {}
{{- end }}
