{{/* What the printer's container and the fleet's share: the port, the probes, the API token. */}}
{{- define "vprinter.port" -}}
ports:
  - name: ipp
    containerPort: 8631
{{- end }}
{{- define "vprinter.probes" -}}
livenessProbe:
  httpGet:
    path: /livez
    port: ipp
  periodSeconds: 10
  timeoutSeconds: 5
readinessProbe:
  httpGet:
    path: /readyz
    port: ipp
  periodSeconds: 2
  timeoutSeconds: 5
{{- end }}
{{- define "vprinter.apiToken" -}}
- name: VPRINTER_API_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ .Values.apiTokenSecret }}
      key: token
      optional: true
{{- end }}
{{- define "vprinter.securityContext" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
terminationGracePeriodSeconds: 30
{{- end }}
